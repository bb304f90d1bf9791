#include "ledger_tables.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "ledger_schema.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;
using sqlite::Statement;

constexpr const char* kReleaseColumns =
    "id, dataset, created, record, epsilon, delta, conversion, parameters, out_dir, path_id, "
    "data_sha256, identity, state, state_note";

json parse_json_column(const std::string& text, const std::string& path, long long id) {
  try {
    return json::parse(text);
  } catch (const json::exception&) {
    throw InputError(fmt::format("ledger {}: release {} has a corrupted JSON field", path, id));
  }
}

LedgerEntry entry_from_row(const Statement& s, const std::string& path) {
  LedgerEntry e;
  e.id = s.integer(0);
  e.dataset = s.text(1);
  e.created = s.text(2);
  e.record = parse_json_column(s.text(3), path, e.id);
  e.epsilon = s.real(4);
  e.delta = s.real(5);
  e.conversion = s.text(6);
  e.parameters = parse_json_column(s.text(7), path, e.id);
  e.out_dir = s.text(8);
  e.path_id = s.text(9);
  e.data_sha256 = s.text(10);
  e.identity = parse_json_column(s.text(11), path, e.id);
  e.state = parse_release_state(s.text(12));
  e.state_note = s.text(13);
  return e;
}

}  // namespace

std::optional<std::string> LedgerTables::key_check() const {
  Statement s(db_, "SELECT value FROM meta WHERE key = 'key_check'");
  if (s.step()) return s.text(0);
  return std::nullopt;
}

void LedgerTables::insert_key_check(const std::string& value) const {
  Statement ins(db_, "INSERT INTO meta(key, value) VALUES('key_check', ?1)");
  ins.bind(1, value);
  ins.step();
}

std::optional<DatasetSummary> LedgerTables::dataset(const std::string& name) const {
  Statement s(db_, "SELECT name, created, records FROM datasets WHERE name = ?1");
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  DatasetSummary d;
  d.name = s.text(0);
  d.created = s.text(1);
  d.records = static_cast<long>(s.integer(2));
  return d;
}

std::vector<std::string> LedgerTables::dataset_names() const {
  std::vector<std::string> names;
  Statement s(db_, "SELECT name FROM datasets ORDER BY name");
  while (s.step()) names.push_back(s.text(0));
  return names;
}

std::vector<Overlap> LedgerTables::overlaps(const DatasetIdentity& id) const {
  Statement s(db_,
              "SELECT name, fingerprint, table_fingerprint, covariate_fingerprint FROM datasets "
              "WHERE name != ?1 ORDER BY name");
  s.bind(1, id.name);
  std::vector<Overlap> out;
  while (s.step()) {
    Overlap o{s.text(0)};
    o.shared = shared_records(id.fingerprint.hashes, Fingerprint::from_blob(s.blob(1), 0).hashes);
    o.shared_rows = shared_records(id.table.hashes, Fingerprint::from_blob(s.blob(2), 0).hashes);
    o.shared_covariates =
        shared_covariates(id.covariates.probes, Fingerprint::from_blob(s.blob(3), 0).hashes);
    if (o.shared > 0 || o.shared_rows > 0 || o.shared_covariates > 0) out.push_back(o);
  }
  return out;
}

void LedgerTables::merge_records(const DatasetIdentity& id) const {
  Statement k(db_,
              "SELECT fingerprint, table_fingerprint, covariate_fingerprint FROM datasets WHERE "
              "name = ?1");
  k.bind(1, id.name);
  Fingerprint records = id.fingerprint, rows = id.table, covariates = id.covariates.own;
  if (k.step()) {
    records.hashes = merged(Fingerprint::from_blob(k.blob(0), 0).hashes, records.hashes);
    rows.hashes = merged(Fingerprint::from_blob(k.blob(1), 0).hashes, rows.hashes);
    covariates.hashes = merged(Fingerprint::from_blob(k.blob(2), 0).hashes, covariates.hashes);
  }
  Statement s(db_,
              "INSERT INTO datasets(name, created, records, fingerprint, table_fingerprint, "
              "covariate_fingerprint) VALUES(?1,?2,?3,?4,?5,?6) ON CONFLICT(name) DO UPDATE SET "
              "records = ?3, fingerprint = ?4, table_fingerprint = ?5, covariate_fingerprint = ?6");
  s.bind(1, id.name);
  s.bind(2, utc_timestamp());
  s.bind(3, static_cast<long long>(records.hashes.size()));
  s.bind_blob(4, records.blob());
  s.bind_blob(5, rows.blob());
  s.bind_blob(6, covariates.blob());
  s.step();
}

std::optional<privacy::RenyiFilter> LedgerTables::filter(const std::string& dataset) const {
  Statement s(db_, "SELECT filter FROM budgets WHERE dataset = ?1");
  s.bind(1, dataset);
  if (!s.step()) return std::nullopt;
  return privacy::RenyiFilter::from_json(
      parse_json_column(s.text(0), db_.path(), 0),
      fmt::format("ledger {}: budget of {}", db_.path(), dataset));
}

void LedgerTables::insert_filter(const std::string& dataset, const privacy::RenyiFilter& f) const {
  Statement s(db_, "INSERT INTO budgets(dataset, filter, created) VALUES(?1,?2,?3)");
  s.bind(1, dataset);
  s.bind(2, f.to_json().dump());
  s.bind(3, utc_timestamp());
  s.step();
}

std::vector<LedgerEntry> LedgerTables::releases(const std::string& where,
                                                const std::string& value) const {
  const std::string sql =
      fmt::format("SELECT {} FROM releases WHERE {} = ?1 ORDER BY id", kReleaseColumns, where);
  Statement s(db_, sql.c_str());
  s.bind(1, value);
  std::vector<LedgerEntry> out;
  while (s.step()) out.push_back(entry_from_row(s, db_.path()));
  return out;
}

long long LedgerTables::insert_release(const LedgerEntry& e) const {
  Statement s(db_,
              "INSERT INTO releases(dataset, created, record, epsilon, delta, conversion, "
              "parameters, out_dir, path_id, data_sha256, identity, state, state_note) "
              "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)");
  s.bind(1, e.dataset);
  s.bind(2, e.created.empty() ? utc_timestamp() : e.created);
  s.bind(3, e.record.dump());
  s.bind(4, e.epsilon);
  s.bind(5, e.delta);
  s.bind(6, e.conversion);
  s.bind(7, e.parameters.dump());
  s.bind(8, e.out_dir);
  s.bind(9, e.path_id);
  s.bind(10, e.data_sha256);
  s.bind(11, e.identity.dump());
  s.bind(12, to_string(e.state));
  s.bind(13, e.state_note);
  s.step();
  return db_.last_insert_rowid();
}

void LedgerTables::set_state(long long id, ReleaseState state, const std::string& note) const {
  Statement s(db_, "UPDATE releases SET state = ?1, state_note = ?2 WHERE id = ?3");
  s.bind(1, to_string(state));
  s.bind(2, note);
  s.bind(3, id);
  s.step();
}

std::optional<PathHistory> LedgerTables::path_history(const std::string& path_id) const {
  Statement s(db_,
              "SELECT path_id, release_id, answered, digest, pending_answered, pending_digest, "
              "private, updated FROM kept_paths WHERE path_id = ?1");
  s.bind(1, path_id);
  if (!s.step()) return std::nullopt;
  PathHistory h;
  h.path_id = s.text(0);
  h.release_id = s.integer(1);
  h.current = {s.integer(2), s.text(3)};
  if (!s.text(5).empty()) h.pending = PathGeneration{s.integer(4), s.text(5)};
  h.is_private = s.integer(6) != 0;
  h.updated = s.text(7);
  return h;
}

void LedgerTables::write_path_history(const PathHistory& h) const {
  Statement s(db_,
              "INSERT INTO kept_paths(path_id, release_id, answered, digest, pending_answered, "
              "pending_digest, private, updated) VALUES(?1,?2,?3,?4,?5,?6,?7,?8) "
              "ON CONFLICT(path_id) DO UPDATE SET answered = ?3, digest = ?4, "
              "pending_answered = ?5, pending_digest = ?6, private = ?7, updated = ?8");
  s.bind(1, h.path_id);
  s.bind(2, h.release_id);
  s.bind(3, h.current.answered);
  s.bind(4, h.current.digest);
  s.bind(5, h.pending ? h.pending->answered : 0LL);
  s.bind(6, h.pending ? h.pending->digest : std::string());
  s.bind(7, static_cast<long long>(h.is_private ? 1 : 0));
  s.bind(8, utc_timestamp());
  s.step();
}

bool LedgerTables::has_legacy() const { return db_.has_table("legacy_releases"); }

std::vector<LegacyGroup> LedgerTables::legacy_groups() const {
  std::vector<LegacyGroup> out;
  if (!has_legacy()) return out;
  Statement s(db_,
              "SELECT h, (SELECT count(*) FROM legacy_releases r WHERE r.dataset_sha256 = h), "
              "(SELECT epsilon FROM legacy_budgets b WHERE b.dataset_sha256 = h), "
              "(SELECT delta FROM legacy_budgets b WHERE b.dataset_sha256 = h) FROM "
              "(SELECT dataset_sha256 AS h FROM legacy_releases UNION "
              "SELECT dataset_sha256 FROM legacy_budgets) ORDER BY h");
  while (s.step()) {
    LegacyGroup g{s.text(0), static_cast<long>(s.integer(1)), std::nullopt};
    if (s.real(2) > 0) g.budget = Budget{s.real(2), s.real(3)};
    out.push_back(g);
  }
  return out;
}

std::vector<LedgerEntry> LedgerTables::legacy_releases(const std::string& sha256) const {
  Statement s(db_,
              "SELECT id, created, mechanism, epsilon, delta, conversion, parameters, out_dir, "
              "path_id FROM legacy_releases WHERE dataset_sha256 = ?1 ORDER BY id");
  s.bind(1, sha256);
  std::vector<LedgerEntry> rows;
  while (s.step()) {
    LedgerEntry e;
    e.created = s.text(1);
    e.record = {{"format", "gpdp-privacy-record"},
                {"version", 1},
                {"events", json::array({parse_json_column(s.text(2), db_.path(), s.integer(0))})}};
    e.epsilon = s.real(3);
    e.delta = s.real(4);
    e.conversion = s.text(5);
    e.parameters = parse_json_column(s.text(6), db_.path(), s.integer(0));
    e.out_dir = s.text(7);
    e.path_id = s.text(8);
    e.data_sha256 = sha256;
    rows.push_back(std::move(e));
  }
  return rows;
}

std::optional<Budget> LedgerTables::legacy_budget(const std::string& sha256) const {
  Statement s(db_, "SELECT epsilon, delta FROM legacy_budgets WHERE dataset_sha256 = ?1");
  s.bind(1, sha256);
  if (s.step()) return Budget{s.real(0), s.real(1)};
  return std::nullopt;
}

void LedgerTables::delete_legacy(const std::string& sha256) const {
  Statement del(db_, "DELETE FROM legacy_releases WHERE dataset_sha256 = ?1");
  del.bind(1, sha256);
  del.step();
  Statement delb(db_, "DELETE FROM legacy_budgets WHERE dataset_sha256 = ?1");
  delb.bind(1, sha256);
  delb.step();
  if (legacy_rows(db_) == 0) db_.exec("DROP TABLE legacy_releases; DROP TABLE legacy_budgets;");
}

}  // namespace gpdp::release
