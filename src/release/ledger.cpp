// The ledger's decisions (ledger.hpp): opening, the key check, the identity and budget checks of
// record/reserve/check, the batch states, the kept paths' histories and the schema-1 migration. The
// SQL is in ledger_tables.cpp and ledger_schema.cpp, over ledger_sqlite.hpp.
#include "gpdp/release/ledger.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>

#include "gpdp/error.hpp"
#include "ledger_schema.hpp"
#include "ledger_tables.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;

std::string describe(const Overlap& o) {
  std::vector<std::string> parts;
  if (o.shared > 0) parts.push_back(fmt::format("{} shared records", o.shared));
  if (o.shared_rows > 0) parts.push_back(fmt::format("{} rows of the same file", o.shared_rows));
  if (o.shared_covariates > 0)
    parts.push_back(fmt::format("{} records at the same covariates", o.shared_covariates));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// PrivacyError naming the earlier dataset(s) that share data with this release.
[[noreturn]] void refuse_overlap(const std::string& path, const DatasetIdentity& id,
                                 const std::vector<Overlap>& overlaps) {
  std::string names;
  for (const auto& o : overlaps)
    names += fmt::format("{}'{}' ({})", names.empty() ? "" : ", ", o.dataset, describe(o));
  throw PrivacyError(
      fmt::format("ledger {}: the data of dataset '{}' ({} distinct records) were already "
                  "released as dataset {}; a budget belongs to the people in the data, whatever "
                  "columns, units or name a release uses, so release them under that dataset's "
                  "name (their releases then compose), or, if they are truly a new dataset, set "
                  "new_dataset_despite_overlap (the certificate records it)",
                  path, id.name, id.fingerprint.hashes.size(), names),
      {"new_dataset_despite_overlap"});
}

}  // namespace

Ledger::Ledger(const std::string& path, const std::string& key_path)
    : Ledger(path, key_path, LedgerOpening::Use) {}

Ledger Ledger::open_existing(const std::string& path) {
  return Ledger(path, "", LedgerOpening::Read);
}

Ledger Ledger::open_for_migration(const std::string& path, const std::string& key_path) {
  return Ledger(path, key_path, LedgerOpening::Migrate);
}

Ledger::Ledger(const std::string& path, const std::string& key_path, LedgerOpening opening)
    : path_(path), key_path_(key_path.empty() ? default_key_path(path) : key_path) {
  if (opening != LedgerOpening::Use && !std::filesystem::exists(path)) {
    throw InputError(fmt::format("ledger {}: no such file", path));
  }
  db_ = std::make_unique<LedgerTables>(path, opening == LedgerOpening::Use);
  prepare_schema(db_->db(), opening);
}

Ledger::~Ledger() = default;

const LedgerKey& Ledger::key() {
  if (key_) return *key_;
  // The first use of a ledger creates its key file and stores the key's check value; later uses
  // must find the same key.
  const std::string stored = db_->transaction(true, [&] {
    if (auto value = db_->key_check()) return *value;
    const LedgerKey created = LedgerKey::load_or_create(key_path_);
    db_->insert_key_check(created.check_value());
    return created.check_value();
  });
  LedgerKey k = LedgerKey::load(key_path_);
  require(k.check_value() == stored,
          fmt::format("ledger {}: its record fingerprints were made with another key than {}; "
                      "give the ledger's own key file",
                      path_, key_path_));
  key_ = k;
  return *key_;
}

std::optional<DatasetSummary> Ledger::dataset(const std::string& name) const {
  auto found = db_->dataset(name);
  if (!found) return std::nullopt;
  DatasetSummary& d = *found;
  d.filter = db_->filter(name);
  d.releases = db_->releases("dataset", name);
  if (d.filter) d.spent = d.filter->spend(composition(d.releases, fmt::format("ledger {}", path_)));
  return found;
}

std::vector<DatasetSummary> Ledger::datasets() const {
  std::vector<DatasetSummary> out;
  for (const auto& n : db_->dataset_names()) out.push_back(*dataset(n));
  return out;
}

std::vector<LegacyGroup> Ledger::legacy() const { return db_->legacy_groups(); }

std::optional<LedgerEntry> Ledger::release_with_path(const std::string& path_id) const {
  if (path_id.empty()) return std::nullopt;
  auto rows = db_->releases("path_id", path_id);
  if (rows.empty()) return std::nullopt;
  return rows.front();
}

std::optional<PathHistory> Ledger::path_history(const std::string& path_id) const {
  return db_->path_history(path_id);
}

namespace {

std::string generation_text(const PathGeneration& g) {
  return fmt::format("{} answered point(s), digest {}", g.answered, g.digest.substr(0, 12));
}

}  // namespace

PathHistory Ledger::open_path(const std::string& path_id, const PathGeneration& file,
                              bool file_private, const std::string& file_name) {
  return db_->transaction(true, [&] {
    const auto releases = db_->releases("path_id", path_id);
    if (path_id.empty() || releases.empty()) {
      throw PrivacyError(
          fmt::format("ledger {} has no release with this kept path ({}, id {}); refusing to "
                      "answer unaccounted queries",
                      path_, file_name, path_id));
    }
    const LedgerEntry& release = releases.front();
    if (release.state == ReleaseState::Failed || release.state == ReleaseState::Abandoned) {
      throw PrivacyError(fmt::format(
          "{}: its release {} is {} in ledger {} ({}); a path of a release that was never "
          "published answers nothing",
          file_name, release.id, to_string(release.state), path_, release.state_note));
    }
    auto h = db_->path_history(path_id);
    if (!h) {  // released before ledger schema 4: the file starts the history
      PathHistory first{path_id, release.id, file, std::nullopt, file_private, ""};
      db_->write_path_history(first);
      return first;
    }
    if (h->pending && file == *h->pending) {
      h->current = *h->pending;  // the file was replaced, the ledger not yet told
    } else if (!(file == h->current)) {
      const bool behind = file.answered < h->current.answered;
      throw PrivacyError(fmt::format(
          "{}: {} the history of kept path {} in ledger {} (the file: {}; the ledger: {}). {} "
          "Only the file the ledger knows may answer; find it, or stop the process that has it",
          file_name, behind ? "is BEHIND" : "does not match", path_id, path_, generation_text(file),
          generation_text(h->current),
          behind ? "It is an older copy of the path (a restored backup?): it would answer again, "
                   "with new independent draws, points the path has already answered (a fork, "
                   "outside ε)."
                 : "It was written without the ledger (a copy of the path answered elsewhere): "
                   "serving it would fork the path's history."));
    }
    h->pending.reset();
    h->is_private = h->is_private && file_private;
    db_->write_path_history(*h);
    return *h;
  });
}

void Ledger::begin_path_save(const std::string& path_id, const PathGeneration& from,
                             const PathGeneration& to, bool to_private) {
  db_->transaction(true, [&] {
    auto h = db_->path_history(path_id);
    if (!h || !(h->current == from)) {
      throw PrivacyError(fmt::format(
          "kept path {}: ledger {} holds {} and this process holds {}; another process has "
          "answered with a copy of this path, so nothing was answered or saved",
          path_id, path_, h ? generation_text(h->current) : "no history", generation_text(from)));
    }
    h->pending = to;
    h->is_private = h->is_private && to_private;
    db_->write_path_history(*h);
    return 0;
  });
}

void Ledger::end_path_save(const std::string& path_id, const PathGeneration& to) {
  db_->transaction(true, [&] {
    auto h = db_->path_history(path_id);
    require(h && h->pending && *h->pending == to,
            fmt::format("kept path {}: ledger {} has no save of {} under way", path_id, path_,
                        generation_text(to)));
    h->current = to;
    h->pending.reset();
    db_->write_path_history(*h);
    return 0;
  });
}

LedgerDecision Ledger::record(LedgerEntry entry, const DatasetIdentity& identity,
                              const std::optional<Budget>& requested,
                              privacy::Conversion conversion, const std::vector<double>& orders) {
  return decide(entry, identity, requested, conversion, orders, ReleaseState::Published);
}

LedgerDecision Ledger::reserve(LedgerEntry entry, const DatasetIdentity& identity,
                               const std::optional<Budget>& requested,
                               privacy::Conversion conversion, const std::vector<double>& orders) {
  return decide(entry, identity, requested, conversion, orders, ReleaseState::Reserved);
}

void Ledger::move(const std::vector<long long>& ids, const std::vector<ReleaseState>& from,
                  ReleaseState to, const std::string& note) {
  db_->transaction(true, [&] {
    for (const long long id : ids) {
      const auto rows = db_->releases("id", std::to_string(id));
      const bool movable =
          !rows.empty() && std::find(from.begin(), from.end(), rows.front().state) != from.end();
      require(
          movable,
          fmt::format("ledger {}: release {} cannot become {}: it is {}", path_, id, to_string(to),
                      rows.empty() ? "not in the ledger" : to_string(rows.front().state)));
      db_->set_state(id, to, note);
    }
    return 0;
  });
}

void Ledger::mark_dispatched(const std::vector<long long>& ids) {
  move(ids, {ReleaseState::Reserved}, ReleaseState::Dispatched, "");
}

void Ledger::mark_published(long long id) {
  move({id}, {ReleaseState::Reserved, ReleaseState::Dispatched}, ReleaseState::Published, "");
}

void Ledger::mark_abandoned(long long id, const std::string& reason) {
  move({id}, {ReleaseState::Reserved, ReleaseState::Dispatched}, ReleaseState::Abandoned, reason);
}

void Ledger::mark_failed(long long id, const std::string& reason) {
  move({id}, {ReleaseState::Published}, ReleaseState::Failed, reason);
}

LedgerDecision Ledger::decision(long long id) const {
  const auto rows = db_->releases("id", std::to_string(id));
  require(!rows.empty(), fmt::format("ledger {}: no release {}", path_, id));
  const LedgerEntry& mine = rows.front();
  std::vector<LedgerEntry> earlier;
  for (auto& e : db_->releases("dataset", mine.dataset))
    if (e.id < id) earlier.push_back(std::move(e));
  LedgerDecision d;
  d.id = id;
  d.earlier_releases = static_cast<long>(earlier.size());
  for (const auto& o : mine.identity.value("overlap_override", json::array()))
    d.overridden.push_back({o.at("dataset").get<std::string>(), o.at("shared").get<long>(),
                            o.value("shared_rows", 0L), o.value("shared_covariates", 0L)});
  d.filter = db_->filter(mine.dataset);
  if (d.filter) {
    const std::string source = fmt::format("ledger {}", path_);
    d.before = d.filter->spend(composition(earlier, source));
    earlier.push_back(mine);
    d.after = d.filter->spend(composition(earlier, source));
  }
  return d;
}

std::vector<LedgerEntry> Ledger::unsettled() const {
  auto rows = db_->releases("state", to_string(ReleaseState::Reserved));
  auto dispatched = db_->releases("state", to_string(ReleaseState::Dispatched));
  rows.insert(rows.end(), dispatched.begin(), dispatched.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return rows;
}

std::vector<LedgerEntry> Ledger::releases_into(const std::string& out_dir) const {
  return db_->releases("out_dir", out_dir);
}

LedgerDecision Ledger::check(const LedgerEntry& entry, const DatasetIdentity& identity,
                             const std::optional<Budget>& requested, privacy::Conversion conversion,
                             const std::vector<double>& orders) {
  return decide(entry, identity, requested, conversion, orders, std::nullopt);
}

LedgerDecision Ledger::decide(const LedgerEntry& entry, const DatasetIdentity& identity,
                              const std::optional<Budget>& requested,
                              privacy::Conversion conversion, const std::vector<double>& orders,
                              std::optional<ReleaseState> insert) {
  check_dataset_name(identity.name);
  require(entry.dataset == identity.name, "ledger: the entry and the identity name two datasets");
  const privacy::Accountant mine =
      privacy::Accountant::replay(entry.record, "the release's privacy record");
  return db_->transaction(insert.has_value(), [&] {
    LedgerDecision d;
    const auto overlaps = db_->overlaps(identity);
    if (!overlaps.empty() && !identity.new_dataset_despite_overlap) {
      refuse_overlap(path_, identity, overlaps);
    }
    d.overridden = overlaps;
    d.filter = db_->filter(identity.name);
    if (d.filter && requested &&
        (d.filter->budget().epsilon != requested->epsilon ||
         d.filter->budget().delta != requested->delta ||
         (!orders.empty() && d.filter->orders() != orders))) {
      throw PrivacyError(fmt::format(
          "ledger {}: the budget of dataset '{}' is fixed at ε = {}, δ = {} (filter order(s) {}); "
          "it cannot be changed to ε = {}, δ = {}",
          path_, identity.name, d.filter->budget().epsilon, d.filter->budget().delta,
          fmt::join(d.filter->orders(), ", "), requested->epsilon, requested->delta));
    }
    if (!d.filter && requested) {
      d.filter = privacy::RenyiFilter::create(*requested, conversion, mine, orders);
      db_->insert_filter(identity.name, *d.filter);
    }
    const auto earlier = db_->releases("dataset", identity.name);
    privacy::Accountant all = composition(earlier, fmt::format("ledger {}", path_));
    d.earlier_releases = static_cast<long>(earlier.size());
    if (d.filter) {
      d.before = d.filter->spend(all);
      all.add(mine);
      d.after = d.filter->spend(all);
      if (!d.after.admitted) {
        throw PrivacyError(fmt::format(
            "privacy budget exceeded: {} earlier release(s) of dataset '{}' spent ε = {:.4g} and "
            "this one would bring the total to ε = {:.4g} > budget ε = {} (at δ = {}; Rényi "
            "filter at α = {:.6g}, fixed when the budget was created); nothing was released "
            "(ledger {})",
            d.earlier_releases, identity.name, d.before.epsilon, d.after.epsilon,
            d.filter->budget().epsilon, d.filter->budget().delta, d.after.alpha, path_));
      }
    }
    if (!insert) return d;
    LedgerEntry row = entry;
    row.state = *insert;
    json overridden = json::array();
    for (const auto& o : overlaps)
      overridden.push_back({{"dataset", o.dataset},
                            {"shared", o.shared},
                            {"shared_rows", o.shared_rows},
                            {"shared_covariates", o.shared_covariates}});
    row.identity = {{"records", identity.fingerprint.records},
                    {"distinct_records", identity.fingerprint.hashes.size()},
                    {"overlap_override", overridden}};
    d.id = db_->insert_release(row);
    db_->merge_records(identity);
    if (!entry.path_id.empty() && entry.path_start) {
      db_->write_path_history(
          {entry.path_id, d.id, *entry.path_start, std::nullopt, entry.path_private, ""});
    }
    return d;
  });
}

DatasetSummary Ledger::migrate_legacy(const std::string& sha256, const DatasetIdentity& identity,
                                      privacy::Conversion conversion) {
  check_dataset_name(identity.name);
  db_->transaction(true, [&] {
    require(db_->has_legacy(),
            fmt::format("ledger {}: nothing to migrate (no schema-1 rows)", path_));
    std::vector<LedgerEntry> rows = db_->legacy_releases(sha256);
    for (auto& e : rows) {
      e.dataset = identity.name;
      e.identity = {{"records", identity.fingerprint.records},
                    {"distinct_records", identity.fingerprint.hashes.size()},
                    {"migrated_from", "ledger schema 1"}};
    }
    const std::optional<Budget> budget = db_->legacy_budget(sha256);
    require(
        !rows.empty() || budget,
        fmt::format("ledger {}: no schema-1 rows for a data file with SHA-256 {}", path_, sha256));
    const auto overlaps = db_->overlaps(identity);
    if (!overlaps.empty() && !identity.new_dataset_despite_overlap) {
      refuse_overlap(path_, identity, overlaps);
    }
    const auto filter = db_->filter(identity.name);
    if (budget && filter &&
        (filter->budget().epsilon != budget->epsilon || filter->budget().delta != budget->delta)) {
      throw PrivacyError(fmt::format(
          "ledger {}: dataset '{}' has the budget ε = {}, δ = {}; the schema-1 budget of {} is "
          "ε = {}, δ = {}: migrate it under a dataset with the same budget",
          path_, identity.name, filter->budget().epsilon, filter->budget().delta, sha256,
          budget->epsilon, budget->delta));
    }
    if (budget && !filter) {
      privacy::Accountant first;
      if (!rows.empty()) first = privacy::Accountant::replay(rows.front().record, path_);
      db_->insert_filter(identity.name, privacy::RenyiFilter::create(*budget, conversion, first));
    }
    for (const auto& e : rows) db_->insert_release(e);
    db_->merge_records(identity);
    db_->delete_legacy(sha256);
    return 0;
  });
  return *dataset(identity.name);
}

privacy::Accountant composition(const std::vector<LedgerEntry>& releases,
                                const std::string& source) {
  privacy::Accountant all;
  for (const auto& e : releases) {
    all.add(privacy::Accountant::replay(e.record, fmt::format("{}: release {}", source, e.id)));
  }
  return all;
}

std::string to_string(ReleaseState state) {
  switch (state) {
    case ReleaseState::Reserved:
      return "reserved";
    case ReleaseState::Dispatched:
      return "dispatched";
    case ReleaseState::Published:
      return "published";
    case ReleaseState::Abandoned:
      return "abandoned";
    case ReleaseState::Failed:
      return "failed";
  }
  return "unknown";
}

ReleaseState parse_release_state(const std::string& name) {
  for (const auto s : {ReleaseState::Reserved, ReleaseState::Dispatched, ReleaseState::Published,
                       ReleaseState::Abandoned, ReleaseState::Failed})
    if (to_string(s) == name) return s;
  throw InputError(fmt::format("unknown release state '{}' in the ledger", name));
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gpdp::release
