#include "gpdp/release/release.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "gpdp/release/auto_mechanism.hpp"

namespace gpdp::release {

namespace {

// A release the ledger recorded (its budget is spent) whose outputs could not be written: its row
// says so ("failed"), so that nobody takes it for published.
[[noreturn]] void failed_after_the_charge(const ReleaseRequest& q, long long id,
                                          const std::exception& e) {
  std::string marked = "its ledger row is now 'failed'";
  try {
    Ledger(q.ledger_path, q.ledger_key_path).mark_failed(id, e.what());
  } catch (const std::exception& again) {
    marked = fmt::format("marking its ledger row 'failed' failed too ({})", again.what());
  }
  throw Error(
      fmt::format("{} — after the ledger recorded release {} (its budget is spent): {}; "
                  "nothing was published",
                  e.what(), id, marked));
}

}  // namespace

ReleaseOutcome run_release(const ReleaseRequest& request) {
  if (request.auto_mechanism) return run_auto_release(request);
  const ValidatedRelease validated = validate(request);
  const ReleaseAccounting accounting = account(request, validated);
  const ReleasedPaths released = draw_and_snap(request, validated, accounting);
  return render_certify_publish(request, validated, accounting, released);
}

ReleaseOutcome render_certify_publish(const ReleaseRequest& request,
                                      const ValidatedRelease& validated,
                                      const ReleaseAccounting& accounting,
                                      const ReleasedPaths& released) {
  Files files = after_the_draw([&] { return render(request, validated, accounting, released); });
  after_the_draw([&] { check_room_for(request, released, files); });
  Certified certified = certify(request, validated, accounting, released);
  const long long id = certified.decision.id;
  try {
    return publish(request, validated, accounting, released, std::move(files),
                   std::move(certified));
  } catch (const std::exception& e) {
    // The internal evaluation comes after the folder: a release in place stays published.
    if (std::filesystem::exists(std::filesystem::path(request.out_dir) / "certificate.json")) throw;
    failed_after_the_charge(request, id, e);
  }
}

}  // namespace gpdp::release
