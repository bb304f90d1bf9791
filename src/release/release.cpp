#include "gpdp/release/release.hpp"

namespace gpdp::release {

ReleaseOutcome run_release(const ReleaseRequest& request) {
  const ValidatedRelease validated = validate(request);
  const ReleaseAccounting accounting = account(request, validated);
  const ReleasedPaths released = draw_and_snap(request, validated, accounting);
  Files files = after_the_draw([&] { return render(request, validated, accounting, released); });
  Certified certified = certify(request, validated, accounting, released);
  return publish(request, validated, accounting, released, std::move(files), std::move(certified));
}

}  // namespace gpdp::release
