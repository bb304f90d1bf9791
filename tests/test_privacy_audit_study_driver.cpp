// gpdp-lab audit-study's driver (privacy/audit_study.hpp) on a reduced table (n ≤ 2): the same
// table and JSON (timing aside) on 1 and 2 threads, nothing above a proven bound; the row verdict
// (score_row) flags each kind of violation when a found value exceeds a proven one and only then;
// bad requests are refused before any search. (The whole study: tests/slow.)
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "gpdp/auditor/audit_study.hpp"
#include "gpdp/auditor/audit_study_row.hpp"
#include "gpdp/error.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/tasks/executor.hpp"
#include "support/paths.hpp"

using namespace gpdp;
using namespace gpdp::auditor;
using namespace gpdp::privacy;
using nlohmann::json;

namespace {

json without_timing(json report) {
  for (auto& row : report.at("rows")) row.erase("seconds");
  return report;
}

// A row of the table with audits that found `share` of every proven value.
StudyRow scored_below(long n, double share) {
  StudyRow row = study_row(study_settings().at(0), n);
  double smallest_delta = row.lemmas.at(0).Delta_n, smallest_eps = row.lemmas.at(0).proven.epsilon;
  for (const auto& l : row.lemmas) {
    AuditOrder o;
    o.alpha = l.proven.alpha;
    o.lower = share * l.rdp_proven;
    row.gradient.orders.push_back(o);
    smallest_delta = std::min(smallest_delta, l.Delta_n);
    smallest_eps = std::min(smallest_eps, l.proven.epsilon);
  }
  row.gradient.sensitivity_lower = share * smallest_delta;
  row.gradient.epsilon_lower = share * smallest_eps;
  row.subplex = AuditReport{};
  row.subplex->orders.push_back(row.gradient.orders.at(0));
  row.subplex->epsilon_lower = share * smallest_eps;
  return row;
}

std::vector<bool> verdicts(const StudyRow& row) {
  std::vector<bool> out;
  for (const auto& l : row.lemmas) out.push_back(l.violation);
  return out;
}

}  // namespace

TEST(AuditStudy, SameTableAndJsonOnOneAndTwoThreads) {
  test::TempDir tmp;
  AuditStudyRequest request;
  request.max_n = 2;
  request.out = tmp.file("one.json");
  tasks::ThreadExecutor one(1, lab::registry()), two(2, lab::registry());
  const AuditStudy a = run_audit_study(request, one);
  request.out = tmp.file("two.json");
  const AuditStudy b = run_audit_study(request, two);
  EXPECT_EQ(a.markdown, b.markdown);
  EXPECT_EQ(without_timing(a.report), without_timing(b.report));
  EXPECT_EQ(json::parse(test::read_text(tmp.file("two.json"))), b.report);
  EXPECT_FALSE(a.violation);
  // 5 settings in 2-D × {B.1, S.1} + 2 in 1-D × {B.1, S.1, B.7}, at n = 1 and 2.
  const auto& rows = a.report.at("rows");
  ASSERT_EQ(rows.size(), (5u * 2 + 2u * 3) * 2);
  for (const auto& row : rows) {
    EXPECT_FALSE(row.at("violation").get<bool>());
    EXPECT_GT(row.at("rdp_found").get<double>(), 0.0);
    EXPECT_LE(row.at("rdp_found").get<double>(), row.at("rdp_proven").get<double>());
    if (row.at("lemma") == "b1") {
      EXPECT_GT(row.at("rdp_found_today").get<double>(), 0.0);  // Subplex ran (n ≤ 50)
    }
  }
  // Header, separator, and one line per (setting, n).
  EXPECT_EQ(std::count(a.markdown.begin(), a.markdown.end(), '\n'), 2 + 7 * 2);
}

TEST(AuditStudy, ScoreRowFlagsEachFoundValueAboveAProvenOne) {
  StudyRow row = scored_below(20, 0.99);
  EXPECT_FALSE(score_row(row));
  EXPECT_EQ(verdicts(row), std::vector<bool>(row.lemmas.size(), false));
  EXPECT_EQ(row.lemmas.at(0).found, 0.99 * row.lemmas.at(0).rdp_proven);
  EXPECT_EQ(row.lemmas.at(0).found_today, 0.99 * row.lemmas.at(0).rdp_proven);

  // D_α at B.1's α* just above B.1's ε_α: B.1 violated.
  row = scored_below(20, 0.99);
  row.gradient.orders.at(0).lower = row.lemmas.at(0).rdp_proven * (1 + 1e-6);
  EXPECT_TRUE(score_row(row));
  EXPECT_TRUE(row.lemmas.at(0).violation);

  // A mean sensitivity between S.1's Δ_n and B.1's: S.1 violated, B.1 not.
  row = scored_below(20, 0.99);
  const double b1 = row.lemmas.at(0).Delta_n, sharp = row.lemmas.at(1).Delta_n;
  ASSERT_LT(sharp, b1);
  row.gradient.sensitivity_lower = 0.5 * (sharp + b1);
  EXPECT_TRUE(score_row(row));
  EXPECT_EQ(verdicts(row), (std::vector<bool>{false, true}));

  // An (ε, δ) lower bound of either search above every lemma's ε(δ).
  for (const bool subplex : {false, true}) {
    row = scored_below(20, 0.99);
    double top = 0;
    for (const auto& l : row.lemmas) top = std::max(top, l.proven.epsilon);
    (subplex ? row.subplex->epsilon_lower : row.gradient.epsilon_lower) = top * (1 + 1e-6);
    EXPECT_TRUE(score_row(row)) << subplex;
    EXPECT_EQ(verdicts(row), std::vector<bool>(row.lemmas.size(), true)) << subplex;
  }

  // Within the 1e-9 relative tolerance: no violation.
  row = scored_below(20, 1.0 + 1e-12);
  EXPECT_FALSE(score_row(row));
}

TEST(AuditStudy, BadRequestsAreRefusedBeforeAnySearch) {
  EXPECT_THROW(audit_study_request_from_json({{"max_n", 2}}), InputError);
  try {
    audit_study_request_from_json({{"max-n", 2}, {"threads", 2}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'threads'"), std::string::npos) << e.what();
  }
  const auto r = audit_study_request_from_json({{"max-n", 5}, {"out", "x.json"}});
  EXPECT_EQ(r.max_n, 5);
  EXPECT_EQ(r.out, "x.json");

  // An executor that fails the test if a search reaches it.
  tasks::CallbackExecutor refuses([](const auto&) -> std::vector<std::string> {
    ADD_FAILURE() << "a search ran";
    return {};
  });
  AuditStudyRequest zero;
  zero.max_n = 0;
  EXPECT_THROW(run_audit_study(zero, refuses), InputError);
  AuditStudyRequest missing;
  missing.max_n = 1;
  missing.out = "/nonexistent-folder/study.json";
  EXPECT_THROW(run_audit_study(missing, refuses), InputError);
}
