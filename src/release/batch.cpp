// A batch of releases: the coordinator's side (batch.hpp). The ledger is touched here only; the
// workers get DrawSpecs and return snapped draws.
#include "gpdp/release/batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "gpdp/error.hpp"
#include "gpdp/release/auto_mechanism.hpp"
#include "gpdp/release/draw_task.hpp"
#include "gpdp/release/reconcile.hpp"
#include "gpdp/release/stages.hpp"
#include "path_lock.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;

// One release of the batch on its way.
struct Item {
  std::size_t index = 0;
  ReleaseRequest q;
  std::optional<ValidatedRelease> v;
  std::optional<ReleaseAccounting> a;
  std::optional<LedgerEntry> resumed;  // its reservation by an earlier run, never drawn
  LedgerDecision decision;
  json outcome;
  std::string where() const { return fmt::format("releases[{}] (dataset '{}')", index, q.dataset); }
};

class Batch {
 public:
  Batch(const BatchOptions& options, Ledger& ledger, tasks::Executor& executor)
      : o_(options), ledger_(ledger), executor_(executor) {}

  void emit(const std::string& event, const Item* it, json extra = json::object()) const {
    if (!o_.on_event) return;
    extra["event"] = event;
    if (it) {
      extra["release"] = it->index;
      extra["dataset"] = it->q.dataset;
    }
    o_.on_event(extra);
  }

  void finish(Item& it, const std::string& status, long long id, const std::string& message,
              std::optional<double> epsilon = std::nullopt) const {
    it.outcome = {{"index", it.index},
                  {"dataset", it.q.dataset},
                  {"out", it.q.out_dir},
                  {"status", status},
                  {"release_id", id ? json(id) : json(nullptr)},
                  {"epsilon", epsilon ? json(*epsilon) : json(nullptr)},
                  {"private", !it.q.insecure_seed.has_value()},
                  {"message", message}};
    emit(status == "published" ? "published" : "skipped", &it,
         {{"status", status}, {"release_id", it.outcome["release_id"]}, {"message", message}});
  }

  // What the ledger already holds for this release's folder; true when it is settled already.
  bool known(Item& it) const {
    const auto rows = ledger_.releases_into(std::filesystem::absolute(it.q.out_dir).string());
    for (const auto& e : rows)
      if (e.state == ReleaseState::Published) {
        finish(it, "already-published", e.id,
               fmt::format("published earlier as release {} (not released again)", e.id));
        return true;
      }
    for (const auto& e : rows)
      if (e.state == ReleaseState::Reserved) it.resumed = e;
    if (it.resumed || rows.empty()) return false;
    const auto& last = rows.back();
    finish(it, "abandoned", last.id,
           fmt::format("release {} into this folder was abandoned: {}; to release this dataset "
                       "again, give the release a new folder (a new release, charged anew)",
                       last.id, last.state_note));
    return true;
  }

  // --mechanism auto: the summary is drawn and the candidate chosen here, before the reservation
  // (the choice's record, summary then envelope, is the same whichever wins); the worker draws
  // the chosen candidate.
  static void choose(Item& it) {
    const AutoPlan plan = plan_auto(it.q, *it.v);
    const AutoChoice choice = draw_summary_and_choose(plan, it.q.insecure_seed);
    ChosenRelease chosen = chosen_release(plan, choice.winner, choice.report);
    it.q = std::move(chosen.request);
    it.v = std::move(chosen.validated);
  }

  // Validates and accounts; returns the error message, if any.
  std::optional<std::string> check(Item& it) const {
    try {
      it.v = validate(it.q);
      if (it.q.auto_mechanism) choose(it);
      it.a = account(it.q, *it.v, ledger_);
      if (it.resumed) it.v->release_uid = it.resumed->parameters.value("release_uid", "");
      return std::nullopt;
    } catch (const Error& e) {
      return fmt::format("{}: {}", it.where(), e.what());
    }
  }

  // Records the release before its draw (or takes over its earlier reservation); false when the
  // ledger refuses it.
  bool reserve(Item& it) {
    if (it.resumed) {
      if (it.resumed->record == it.a->entry.record) {
        it.decision = ledger_.decision(it.resumed->id);
        emit("resumed", &it, {{"release_id", it.resumed->id}});
        return true;
      }
      ledger_.mark_abandoned(it.resumed->id,
                             "never drawn; the resumed batch asks for a different release");
    }
    LedgerEntry e = it.a->entry;
    e.created = utc_timestamp();
    e.parameters["release_uid"] = it.v->release_uid;
    e.parameters["recorded"] = "before the draw (release-batch)";
    try {
      it.decision =
          ledger_.reserve(e, it.a->identity, it.q.budget, it.q.conversion, it.q.budget_orders);
    } catch (const PrivacyError& err) {
      finish(it, "refused", 0, fmt::format("nothing drawn: {}", err.what()));
      return false;
    }
    emit("reserved", &it, {{"release_id", it.decision.id}});
    return true;
  }

  void publish_one(Item& it, const DrawSpec& spec, const json& result) {
    const auto& q = it.q;
    std::optional<ReleaseOutcome> done;
    try {
      ReleasedPaths p = released_paths(
          q, *it.v, *it.a,
          snapped_draws_from_json(result, spec, lattice_of(it.a->mechanism), it.where()));
      Files files = after_the_draw([&] { return render(q, *it.v, *it.a, p); });
      Certified c = certify_reserved(q, *it.v, *it.a, p, it.decision);
      done = publish(q, *it.v, *it.a, p, std::move(files), std::move(c));
    } catch (const std::exception& e) {
      ledger_.mark_abandoned(it.decision.id, fmt::format("drawn, not published: {}", e.what()));
      finish(it, "failed", it.decision.id,
             fmt::format("drawn but not published (its budget stays spent): {}", e.what()));
      return;
    }
    emit("folder", &it, {{"release_id", it.decision.id}});
    ledger_.mark_published(it.decision.id);
    finish(it, "published", it.decision.id, q.insecure_seed ? "seeded: NOT PRIVATE" : "",
           it.a->guarantee.epsilon);
  }

  void wave(const std::vector<Item*>& items) {
    std::vector<Item*> go;
    for (Item* it : items)
      if (reserve(*it)) go.push_back(it);
    if (go.empty()) return;
    std::vector<long long> ids;
    std::vector<DrawSpec> specs;
    std::vector<tasks::Task> list;
    for (Item* it : go) {
      ids.push_back(it->decision.id);
      specs.push_back(draw_spec(it->q, *it->v, *it->a));
      list.push_back({kDrawTaskKind, to_json(specs.back())});
    }
    ledger_.mark_dispatched(ids);
    emit("dispatched", nullptr, {{"release_ids", ids}});
    std::vector<json> results;
    try {
      results = executor_.map(list);
    } catch (const std::exception& e) {
      for (Item* it : go) {
        ledger_.mark_abandoned(it->decision.id, fmt::format("the draw failed: {}", e.what()));
        finish(*it, "failed", it->decision.id,
               fmt::format("the draw failed (its budget stays spent): {}", e.what()));
      }
      return;
    }
    emit("drawn", nullptr, {{"release_ids", ids}});
    for (std::size_t k = 0; k < go.size(); ++k) publish_one(*go[k], specs[k], results.at(k));
  }

 private:
  const BatchOptions& o_;
  Ledger& ledger_;
  tasks::Executor& executor_;
};

PathLock batch_lock(const std::string& ledger) {
  try {
    return PathLock(ledger);
  } catch (const InputError& e) {
    throw InputError(fmt::format(
        "ledger {}: another release-batch coordinator (or gpdp process) holds its lock; one "
        "coordinator per ledger ({})",
        ledger, e.what()));
  }
}

json settled_json(const std::vector<Settled>& settled) {
  json out = json::array();
  for (const auto& s : settled)
    out.push_back({{"release_id", s.entry.id},
                   {"dataset", s.entry.dataset},
                   {"out", s.entry.out_dir},
                   {"was", to_string(s.entry.state)},
                   {"now", to_string(s.now)},
                   {"note", s.note}});
  return out;
}

}  // namespace

json run_batch(const Manifest& manifest, const BatchOptions& options, tasks::Executor& executor) {
  BatchOptions o = options;
  if (o.ledger_path.empty()) o.ledger_path = manifest.ledger;
  require(!o.ledger_path.empty(),
          fmt::format("{}: no ledger: give one on the command line or as the manifest's "
                      "\"ledger\"",
                      manifest.source));
  std::vector<Item> items;
  std::set<std::string> outs;
  for (std::size_t i = 0; i < manifest.releases.size(); ++i) {
    Item it;
    it.index = i;
    it.q = manifest.releases[i];
    it.q.ledger_path = o.ledger_path;
    it.q.ledger_key_path = o.ledger_key_path;
    outs.insert(std::filesystem::absolute(it.q.out_dir).string());
    items.push_back(std::move(it));
  }
  const PathLock lock = batch_lock(o.ledger_path);
  Ledger ledger(o.ledger_path, o.ledger_key_path);
  const auto settled = reconcile(ledger, outs);
  for (auto event : settled_json(settled)) {
    event["event"] = "settled";
    if (o.on_event) o.on_event(event);
  }
  Batch batch(o, ledger, executor);
  std::vector<Item*> todo;
  std::vector<std::string> errors;
  for (auto& it : items) {
    if (batch.known(it)) continue;
    if (auto error = batch.check(it)) errors.push_back(*error);
    todo.push_back(&it);
  }
  if (!errors.empty()) {
    throw InputError(fmt::format(
        "{}: the batch was not started (nothing recorded, nothing drawn): {} invalid release(s):\n"
        "  {}",
        manifest.source, errors.size(), fmt::join(errors, "\n  ")));
  }
  const std::size_t step = o.wave ? o.wave : std::max<std::size_t>(todo.size(), 1);
  for (std::size_t start = 0; start < todo.size(); start += step) {
    const auto end = todo.begin() + static_cast<long>(std::min(todo.size(), start + step));
    batch.wave({todo.begin() + static_cast<long>(start), end});
  }
  json releases = json::array();
  for (const auto& it : items) releases.push_back(it.outcome);
  return {{"ledger", o.ledger_path}, {"settled", settled_json(settled)}, {"releases", releases}};
}

}  // namespace gpdp::release
