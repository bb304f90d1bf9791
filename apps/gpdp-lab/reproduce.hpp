#pragma once
// `gpdp-lab reproduce TARGET --out DIR [--quick] [--pairs N] [--seed S]`: regenerates one of the
// papers' tables or figures. Each experiment file registers its targets with a static
//   const bool registered = gpdp::cli::register_reproduction({"fig2", "…", &run_fig2});
#include <functional>
#include <string>

#include "gpdp/reproduce/options.hpp"

namespace gpdp::cli {

// The options of every target (gpdp/reproduce/options.hpp: the library's utility reproductions
// take the same).
using ReproduceOptions = reproduce::Options;

struct Reproduction {
  std::string name;
  std::string description;
  std::function<void(const ReproduceOptions&)> run;
};

bool register_reproduction(Reproduction r);

}  // namespace gpdp::cli
