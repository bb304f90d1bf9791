#pragma once
// Resolving `--data abalone|adult|FILE.csv` for the OPS commands: the names abalone and adult are
// the UCI files gpdp ships (found by io::find_data_file: --data-dir, $GPDP_DATA_DIR, the install's
// data folder, the repository's data/); anything else is read as a CSV file (label column --label).
#include <string>

#include "gpdp/ops/tabular.hpp"

namespace gpdp::ops {

// abalone | adult | path to a CSV. `data_dir` empty = the default lookup.
TabularSource load_source(const std::string& data, const std::string& data_dir,
                          const std::string& label_column);

}  // namespace gpdp::ops
