#pragma once
// How a front end puts a library error into its own words. The library names parameters
// (Error::parameters(): "draws must be ≥ 1, got 0"); the CLI spells them as its flags
// ("--draws must be ≥ 1, got 0"), a front end of keyword arguments could leave them as they are.
#include <map>
#include <string>
#include <vector>

namespace gpdp::options {

// `message` with every whole-word occurrence of each of `parameters` replaced by its spelling in
// `spelling`; a parameter without one stays as it is. A whole word is not part of a longer name,
// a flag or a file path ("data" is not replaced in "data_dir", "--data" or "/tmp/data.csv"), nor
// inside a quoted value ("'data'": what the user gave).
std::string spell_parameters(const std::string& message, const std::vector<std::string>& parameters,
                             const std::map<std::string, std::string>& spelling);

}  // namespace gpdp::options
