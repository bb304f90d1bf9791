#pragma once
// Where gpdp finds the data sets it ships (data/ in the repository, share/gpdp/data when
// installed): UCI Abalone and Adult for the OPS experiments, Lucas County sales for
// `reproduce fig4-lucas`, the Meuse samples of the demo. data/README.md lists them.
//
// A named file is looked up in, in this order:
//   1. the folder the caller was given explicitly (`--data-dir DIR`), and only there if given;
//   2. $GPDP_DATA_DIR;
//   3. the install's data folder (<prefix>/share/gpdp/data, fixed when gpdp is configured);
//   4. the repository's data/ beside the build folder of the running executable
//      (<exe>/../data, e.g. build/gpdp -> data/).
// In each folder NAME is taken as it is or, failing that, gzip-compressed as NAME.gz (the CSV
// reader decompresses .gz files).
#include <string>
#include <vector>

namespace gpdp::io {

// The candidate folders in the order above (explicit_dir empty = not given).
std::vector<std::string> data_dir_candidates(const std::string& explicit_dir);

// Path of `name` (or `name.gz`) in the first candidate folder holding it; InputError listing
// every folder tried otherwise.
std::string find_data_file(const std::string& name, const std::string& explicit_dir = "");

}  // namespace gpdp::io
