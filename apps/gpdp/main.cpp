// gpdp: differentially private Gaussian-process posterior sample paths.
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <new>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/factorisation.hpp"
#include "gpdp/version.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {
std::vector<CommandSetup>& registry() {
  static std::vector<CommandSetup> commands;
  return commands;
}
}  // namespace

bool register_command(CommandSetup setup) {
  registry().push_back(std::move(setup));
  return true;
}

void install_commands(CLI::App& app) {
  for (const auto& setup : registry()) setup(app);
}

}  // namespace gpdp::cli

int main(int argc, char** argv) {
  CLI::App app{fmt::format(
      "gpdp {} — differentially private Gaussian-process posterior sample paths.\n"
      "Releases exact posterior draws with a Rényi-DP certificate, keeps the privacy budget,\n"
      "and audits the claims. Run 'gpdp COMMAND --help' for each command.",
      gpdp::kVersion)};
  app.set_version_flag("--version", gpdp::kVersion);
  app.require_subcommand(1);
  // Before or after the subcommand (fallthrough); its callback runs before the subcommand's.
  app.add_option_function<std::string>(
         "--factor",
         [](const std::string& device) {
           gpdp::set_factor_device(gpdp::parse_factor_device(device));
         },
         "Device of the dense factorisations (Cholesky, eigendecomposition) of every command: "
         "cpu (default) or gpu (cuSOLVER; needs a gpdp built with -DGPDP_CUDA=ON and a CUDA "
         "device, refused otherwise). Random draws always stay on the CPU's generator.")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  app.fallthrough();
  gpdp::cli::install_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const gpdp::Error& e) {
    std::fprintf(stderr, "gpdp: error: %s\n", gpdp::cli::with_flags(e, app).c_str());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "gpdp: error: out of memory: this request needs more memory than the machine "
                 "can give (ask for fewer points, a coarser grid or fewer draws)\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpdp: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}
