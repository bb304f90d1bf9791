#pragma once
// Resolving `--data abalone|adult|FILE.csv` for the OPS commands.
//
// The names abalone and adult are looked up in a data folder, the first of these that holds the
// needed files: (1) --data-dir DIR, (2) $GPDP_DATA_DIR, (3) $GPDP_SHARED_DIR/data,
// (4) ../shared/data and (5) shared/data relative to the working directory, (6) ../../shared/data
// relative to the gpdp executable (a build folder inside a checkout with shared/ beside it),
// (7) /work/shared/data. Anything else is read as a CSV file (label column --label).
#include <string>
#include <vector>

#include "gpdp/ops/tabular.hpp"

namespace gpdp::ops {

// Candidate folders in the order above (explicit_dir empty = not given).
std::vector<std::string> data_dir_candidates(const std::string& explicit_dir);
// The first candidate containing `file`; InputError listing every folder tried otherwise.
std::string find_data_dir(const std::string& explicit_dir, const std::string& file);
// abalone | adult | path to a CSV.
TabularSource load_source(const std::string& data, const std::string& explicit_dir,
                          const std::string& label_column);

}  // namespace gpdp::ops
