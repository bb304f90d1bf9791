// The one reader of gpdp serve's request (request.hpp).
#include "gpdp/serve/request.hpp"

#include "commands/serve.hpp"
#include "gpdp/error.hpp"

namespace gpdp::serve {

ServeRequest serve_request_from_json(const nlohmann::json& request) {
  options::check_request_keys(commands::serve_options(), request, "serve");
  ServeRequest r;
  r.config = load_serve_config(request.value("config", std::string()));
  const std::string listen = request.value("listen", std::string());
  if (!listen.empty()) {
    try {
      r.config.listen = parse_listen(listen, "listen");
    } catch (const InputError& e) {
      throw ParameterError({"listen"}, e.what());
    }
  }
  r.json_logs = request.value("json-logs", false);
  return r;
}

}  // namespace gpdp::serve
