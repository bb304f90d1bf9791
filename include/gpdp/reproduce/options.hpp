#pragma once
// What `gpdp-lab reproduce TARGET` (and `python -m gpdp.distributed reproduce TARGET`) is asked
// for.
#include <cstdint>
#include <string>

namespace gpdp::reproduce {

struct Options {
  std::string out_dir;  // created if missing
  bool quick = false;   // reduced sizes for a smoke run (said so in the output)
  long pairs = 0;       // 0 = the paper's number
  std::uint64_t seed = 20260616;
  int threads = 0;  // 0 = all cores; with other executors: the workers the tasks are sized for
  std::string conversion = "mironov";  // mironov | cks
  std::string sensitivity;             // empty: the paper's lemma (B.7 in 1-D, B.1 in 2-D)
  std::string data_dir;                // empty: the default data lookup (io/data_dir.hpp)
};

// A target: its name (`table1`) and one line saying what it regenerates.
struct Target {
  std::string name;
  std::string description;
};

}  // namespace gpdp::reproduce
