#include "gpdp/auditor/audit_study.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <mutex>

#include "audit_study_report.hpp"
#include "gpdp/auditor/audit_study_row.hpp"
#include "gpdp/error.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/tasks/together.hpp"
#include "io/atomic_file.hpp"

namespace gpdp::auditor {

namespace {

void check(const AuditStudyRequest& r) {
  require_parameter(r.max_n >= 1, "max_n",
                    fmt::format("audit-study: max_n must be ≥ 1, got {}", r.max_n));
  if (!r.out.empty()) {
    const auto parent = std::filesystem::path(r.out).parent_path();
    require_parameter(parent.empty() || std::filesystem::is_directory(parent), "out",
                      fmt::format("audit-study: out: folder '{}' does not exist", parent.string()));
  }
}

// The rows' audits as drivers of run_together; each row reports once both of its audits are done.
class StudyRun {
 public:
  StudyRun(std::vector<StudyRow>& rows, const std::function<void(const std::string&)>& progress)
      : rows_(rows), progress_(progress), left_(rows.size(), 0) {}

  std::vector<tasks::Driver> drivers() {
    std::vector<tasks::Driver> out;
    for (std::size_t k = 0; k < rows_.size(); ++k) {
      const StudyRow& row = rows_[k];
      const privacy::GpMechanism m =
          study_mechanism(row.setting, row.n, privacy::SensitivityLemma::B1);
      out.push_back([this, k, m](tasks::Executor& e) {
        rows_[k].gradient = audit(m, study_gradient_settings(rows_[k]), {}, &e);
        finished(k);
      });
      ++left_[k];
      if (runs_subplex(row)) {
        out.push_back([this, k, m](tasks::Executor& e) {
          rows_[k].subplex = audit(m, study_subplex_settings(rows_[k]), {}, &e);
          finished(k);
        });
        ++left_[k];
      }
    }
    return out;
  }

 private:
  void finished(std::size_t k) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (--left_[k] > 0) return;
    StudyRow& row = rows_[k];
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (progress_) {
      progress_(fmt::format("study: d = {}, ℓ = {}, r = {}, σ = {}, n = {}: done after {:.1f} s",
                            row.setting.dim, row.setting.ell, row.setting.r, row.setting.sigma,
                            row.n, row.seconds));
    }
  }

  std::vector<StudyRow>& rows_;
  const std::function<void(const std::string&)>& progress_;
  std::vector<int> left_;  // audits still running, per row
  std::mutex mutex_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

std::vector<options::OptionSpec> audit_study_options() {
  using options::option;
  using options::OptionScope;
  using options::OptionType;
  const AuditStudyRequest d;  // the defaults
  return {
      option("--out", OptionType::Text, nullptr,
             "JSON file for every row with its witness datasets"),
      option("--max-n", OptionType::Integer, d.max_n,
             "Skip the rows with larger n (a shorter run)"),
      option("--threads", OptionType::Integer, 1, "Worker threads for the searches (0 = all cores)")
          .in_scope(OptionScope::Cli),
      option("--quiet", OptionType::Flag, false, "No per-row progress on stderr")
          .in_scope(OptionScope::FrontEnd),
  };
}

AuditStudyRequest audit_study_request_from_json(const nlohmann::json& j) {
  options::check_request_keys(audit_study_options(), j, "audit-study");
  AuditStudyRequest r;
  r.max_n = j.value("max-n", r.max_n);
  r.out = j.value("out", r.out);
  return r;
}

AuditStudy run_audit_study(const AuditStudyRequest& request, tasks::Executor& executor,
                           const std::function<void(const std::string&)>& progress) {
  check(request);
  // The coordinator's own linear algebra (witness shapes, exact oracles) rounds as on a worker.
  const SingleThreadedBlas one_blas_thread;
  std::vector<StudyRow> rows;
  for (const auto& setting : study_settings()) {
    for (const long n : study_sizes()) {
      if (n <= request.max_n) rows.push_back(study_row(setting, n));
    }
  }
  StudyRun run(rows, progress);
  tasks::run_together(executor, run.drivers());

  AuditStudy study;
  study.markdown = study_markdown_header();
  nlohmann::json json_rows = nlohmann::json::array();
  for (auto& row : rows) {
    study.violation = score_row(row) || study.violation;
    study.markdown += study_markdown_line(row);
    append_study_json(row, json_rows);
  }
  study.report = {{"delta", kStudyDelta}, {"conversion", "mironov"}, {"rows", json_rows}};
  if (!request.out.empty()) io::write_file_atomic(request.out, study.report.dump(1) + "\n");
  return study;
}

}  // namespace gpdp::auditor
