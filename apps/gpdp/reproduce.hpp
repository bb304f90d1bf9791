#pragma once
// `gpdp reproduce TARGET --out DIR [--quick] [--pairs N] [--seed S]`: regenerates one of the
// papers' tables or figures. Each experiment file registers its targets with a static
//   const bool registered = gpdp::cli::register_reproduction({"fig2", "…", &run_fig2});
#include <cstdint>
#include <functional>
#include <string>

namespace gpdp::cli {

struct ReproduceOptions {
  std::string out_dir;  // created if missing
  bool quick = false;   // reduced sizes for a smoke run (said so in the output)
  long pairs = 0;       // 0 = the paper's number
  std::uint64_t seed = 20260616;
  int threads = 0;                     // 0 = all cores
  std::string conversion = "mironov";  // mironov | cks
  std::string sensitivity;             // empty: the paper's lemma (B.7 in 1-D, B.1 in 2-D)
  std::string data_dir;                // empty: the default data lookup (io/data_dir.hpp)
};

struct Reproduction {
  std::string name;
  std::string description;
  std::function<void(const ReproduceOptions&)> run;
};

bool register_reproduction(Reproduction r);

}  // namespace gpdp::cli
