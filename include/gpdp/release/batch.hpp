#pragma once
// A batch of releases run by one coordinator that keeps the ledger on its own disk and has the
// draws made by workers (python -m gpdp.distributed release-batch; docs/security.md "Batch
// releases", docs/release.md for the manifest):
//
//   lock      the ledger's batch lock (flock on <ledger>.lock): one coordinator per ledger
//   settle    releases an earlier coordinator recorded but did not finish (reconcile.hpp)
//   check     every release: already in the ledger for its folder (published: skipped;
//             abandoned: reported), else validated and accounted; any error refuses the whole
//             batch with every error listed, before anything is recorded or drawn
//   per wave of `wave` releases, in manifest order:
//     record  Ledger::reserve, one durable transaction each, BEFORE any draw: a release the
//             budget (Rényi filter) or the records' identity refuses is reported and never drawn
//     mark    the recorded ones Dispatched (one transaction), then dispatch their draws
//             (release.draw tasks: plain data, secure RNG on the worker) through `executor`
//     publish each: the snapped draws checked (shape, generator, lattice), rendered, certified
//             with the reservation's decision, the folder renamed into place, then Published
//
// Workers never see the ledger, its key, or any other release's data.
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "gpdp/release/manifest.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::release {

struct BatchOptions {
  std::string ledger_path;      // required (the manifest's "ledger" when empty)
  std::string ledger_key_path;  // empty: <ledger>.key
  std::size_t wave = 0;         // releases recorded per dispatch; 0: the whole batch at once
  // Called after each step with {"event": reserved|resumed|refused|dispatched|drawn|folder|
  // published|failed|settled|skipped, "release": index, "dataset", "release_id", "message"}.
  std::function<void(const nlohmann::json&)> on_event;
};

// Runs the batch; returns {"ledger", "settled": [...], "releases": [one outcome per release, in
// manifest order: index, dataset, out, status (published | already-published | refused |
// abandoned | failed), release_id, epsilon, private, message]}. Throws InputError (nothing
// recorded, nothing drawn) when a release is invalid or another coordinator holds the ledger.
nlohmann::json run_batch(const Manifest& manifest, const BatchOptions& options,
                         tasks::Executor& executor);

}  // namespace gpdp::release
