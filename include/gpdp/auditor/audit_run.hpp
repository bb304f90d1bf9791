#pragma once
// One audit as `gpdp-lab audit` and `python -m gpdp.distributed audit` run it: the options (one
// definition, options/option_spec.hpp), the request they make (keys: the flags without "--"),
// and the driver that returns the report either front end prints (text, or JSON with --json).
// The local searches are tasks on the executor given; the report is the same whatever it is.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/auditor/audit.hpp"
#include "gpdp/options/mechanism_flags.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::auditor {

struct AuditRequest {
  AuditRequest();  // the CLI's defaults: conversion cks; n and delta unset (required)
  options::MechanismFlags mechanism;
  AuditSettings settings;  // settings.threads is the front end's (the executor's), not read here
  bool json = false;       // the report as JSON (with the witness datasets) instead of text
};

std::vector<options::OptionSpec> audit_options();

// The request from JSON (the keys of audit_options(), as parse_options makes it from the
// flags): missing keys keep their defaults, unknown keys are an InputError naming them.
AuditRequest audit_request_from_json(const nlohmann::json& j);

struct AuditRun {
  std::string report;      // what the front end prints
  bool violation = false;  // a concrete neighbouring pair exceeds the proven bound
};
// Validates the request (ParameterError naming the parameter), audits, returns the report.
AuditRun run_audit(const AuditRequest& request, tasks::Executor& executor,
                   const std::function<void(const std::string&)>& progress = {});

// The text report of `gpdp-lab audit` (without --json).
std::string audit_report_text(const AuditReport& report, const privacy::GpMechanism& mech,
                              const privacy::ResolvedBounds& b);

}  // namespace gpdp::auditor
