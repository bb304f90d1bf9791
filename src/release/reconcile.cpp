// Settling a batch's unfinished releases after its coordinator stopped (reconcile.hpp).
#include "gpdp/release/reconcile.hpp"

#include <filesystem>
#include <fstream>

namespace gpdp::release {

namespace {

constexpr const char* kDrawMayExist =
    "the coordinator stopped after dispatching its draw and before publishing it: the draw may "
    "exist, so its budget stays spent and it is never drawn again (docs/security.md)";
constexpr const char* kNeverDrawn =
    "recorded before its draw, never drawn, and no release of the resumed batch writes into its "
    "folder: its budget stays spent";

}  // namespace

bool folder_published(const LedgerEntry& entry) {
  const auto file = std::filesystem::path(entry.out_dir) / "certificate.json";
  std::ifstream in(file);
  if (!in) return false;
  const auto cert = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!cert.is_object() || !cert.contains("ledger")) return false;
  const bool same_id = cert["ledger"].value("release_id", -1LL) == entry.id;
  const auto uid = entry.parameters.find("release_uid");
  const bool same_uid =
      uid == entry.parameters.end() || cert.value("release_uid", std::string()) == *uid;
  return same_id && same_uid;
}

std::vector<Settled> reconcile(Ledger& ledger, const std::set<std::string>& resumable_out_dirs) {
  std::vector<Settled> out;
  for (const auto& e : ledger.unsettled()) {
    if (folder_published(e)) {
      ledger.mark_published(e.id);
      out.push_back({e, ReleaseState::Published, "its folder was in place"});
    } else if (e.state == ReleaseState::Reserved && resumable_out_dirs.count(e.out_dir)) {
      out.push_back({e, ReleaseState::Reserved, "never drawn: resumed by this batch"});
    } else {
      const char* why = e.state == ReleaseState::Dispatched ? kDrawMayExist : kNeverDrawn;
      ledger.mark_abandoned(e.id, why);
      out.push_back({e, ReleaseState::Abandoned, why});
    }
  }
  return out;
}

}  // namespace gpdp::release
