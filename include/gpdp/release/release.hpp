#pragma once
// `gpdp release` as a library call: private data in, released sample paths + excursion map +
// certificate out, with the privacy budget enforced by the ledger (docs/mathematics.md §1–2, STYLE
// "Release"). The work is done by the stages of stages.hpp; run_release() chains them.
// docs/security.md gives the order of events and why.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "gpdp/release/path_store.hpp"
#include "gpdp/release/request.hpp"
#include "gpdp/release/stages.hpp"

namespace gpdp::release {

// validate → account → draw_and_snap → render → certify → publish. Throws InputError /
// PrivacyError / NumericalError before anything is written or recorded.
// With request.auto_mechanism: auto_mechanism.hpp run_auto_release (the choice first).
ReleaseOutcome run_release(const ReleaseRequest& request);
// The stages after the draw: render → certify (the ledger records it) → publish, a failure after
// the ledger's commit marking the row failed.
ReleaseOutcome render_certify_publish(const ReleaseRequest& request,
                                      const ValidatedRelease& validated,
                                      const ReleaseAccounting& accounting,
                                      const ReleasedPaths& released);

// `gpdp query`: answers new points of a kept path conditionally on everything it has answered,
// re-deriving the posterior from the data file (whose SHA-256 must match: the posterior is rebuilt
// from exactly those bytes), consuming no budget; the ledger must hold the path's release.
// The updated state is saved BEFORE the answer is written. Returns the summary.
struct QueryRequest {
  std::string path_file;
  PathKey key;
  std::string data_path;
  EvaluationSpec evaluation = FilePoints{};  // a grid or a points file (no mask)
  // The CRS of the points (AUTH:CODE); empty: the release's. Transformed to the release's CRS;
  // refused for a release without one.
  std::string crs;
  std::string out_csv;
  std::string ledger_path;                     // empty: the ledger named in the path file
  std::optional<std::uint64_t> insecure_seed;  // tests only: reproducible, NOT PRIVATE
};
nlohmann::json run_query(const QueryRequest& request);

}  // namespace gpdp::release
