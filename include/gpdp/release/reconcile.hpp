#pragma once
// After a batch coordinator stopped (killed, crashed, lost its machine), its ledger may hold
// releases recorded but not finished (Ledger::unsettled: Reserved or Dispatched). reconcile()
// settles each one, so that the ledger matches the published folders exactly
// (docs/security.md "Batch releases"):
//   * its folder is in place with the certificate of this release (release id and release uid)
//     -> Published (the coordinator stopped between the folder's rename and the ledger's update);
//   * Dispatched, no folder -> Abandoned: its draw may exist (on a worker, in the coordinator's
//     memory), so its budget stays spent and it is never drawn again;
//   * Reserved, no folder, and a release of the resumed batch writes into its folder -> left
//     Reserved: nothing was drawn, the batch resumes it without recording it again;
//   * Reserved otherwise -> Abandoned (never drawn; its budget stays spent).
// Call it only while holding the ledger's batch lock (batch.hpp), so that no live coordinator's
// releases are settled under it.
#include <set>
#include <string>
#include <vector>

#include "gpdp/release/ledger.hpp"

namespace gpdp::release {

struct Settled {
  LedgerEntry entry;  // as it was found
  ReleaseState now;   // Published, Abandoned or (resumable) Reserved
  std::string note;
};

// `resumable_out_dirs`: the (absolute) folders of the resumed batch's releases.
std::vector<Settled> reconcile(Ledger& ledger, const std::set<std::string>& resumable_out_dirs);

// True when `out_dir` holds the published folder of ledger release `entry` (its certificate names
// the release's id and, when the ledger recorded one, its release uid).
bool folder_published(const LedgerEntry& entry);

}  // namespace gpdp::release
