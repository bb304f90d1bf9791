// gpdp serve's one request (commands/serve.hpp, serve/request.hpp): the CLI's --print-request is
// the options given as request keys, the reader loads the configuration file and puts the listen
// address given over the file's, and its errors name parameters (the CLI spells them as flags).
// python/tests/test_serve_request.py checks Python's gpdp.serve.request against the CLI.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/serve/request.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

TEST(ServeRequest, CliPrintsTheOptionsGivenAndTheReaderReadsThem) {
  TempDir dir;
  write_text(dir.file("serve.json"),
             R"({"listen": "0.0.0.0:9000", "releases": [{"id": "a", "release_dir": "out",
                 "path": "p.gpdp", "data": "d.csv"}]})");
  const auto r = run_cli("serve --config " + dir.file("serve.json") +
                         " --listen 127.0.0.1:0 --json-logs "
                         "--print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // nothing read, nothing served
  const json printed = json::parse(r.out);
  EXPECT_EQ(
      printed,
      (json{{"config", dir.file("serve.json")}, {"listen", "127.0.0.1:0"}, {"json-logs", true}}));

  const serve::ServeRequest given = serve::serve_request_from_json(printed);
  EXPECT_EQ(given.config.listen.host, "127.0.0.1");
  EXPECT_EQ(given.config.listen.port, 0);
  EXPECT_TRUE(given.json_logs);
  ASSERT_EQ(given.config.releases.size(), 1u);
  EXPECT_EQ(given.config.releases[0].path, (dir.path() / "p.gpdp").string());
  // Without listen (or with an empty one) the file's address stands; json-logs is off.
  for (const json& request : {json{{"config", dir.file("serve.json")}},
                              json{{"config", dir.file("serve.json")}, {"listen", ""}}}) {
    const serve::ServeRequest file = serve::serve_request_from_json(request);
    EXPECT_EQ(file.config.listen.host, "0.0.0.0");
    EXPECT_EQ(file.config.listen.port, 9000);
    EXPECT_FALSE(file.json_logs);
  }
}

TEST(ServeRequest, ErrorsNameParametersAndTheCliSpellsThemAsFlags) {
  TempDir dir;
  write_text(dir.file("serve.json"),
             R"({"releases": [{"id": "a", "release_dir": "out", "path": "p.gpdp",
                 "data": "d.csv"}]})");
  const json request = {{"config", dir.file("serve.json")}, {"listen", "127.0.0.1"}};
  try {
    serve::serve_request_from_json(request);
    ADD_FAILURE() << "accepted " << request.dump();
  } catch (const InputError& e) {
    EXPECT_EQ(e.parameters(), std::vector<std::string>{"listen"});
    EXPECT_EQ(std::string(e.what()), "listen: '127.0.0.1' must be HOST:PORT (e.g. 127.0.0.1:8080)");
  }
  const auto cli = run_cli("serve --config " + dir.file("serve.json") + " --listen 127.0.0.1");
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_EQ(cli.err,
            "gpdp: error: --listen: '127.0.0.1' must be HOST:PORT (e.g. 127.0.0.1:8080)\n");
  // The file is read first: its errors name it and its key.
  write_text(dir.file("bad.json"), R"({"listen": "nowhere", "releases": []})");
  const json bad = {{"config", dir.file("bad.json")}, {"listen", "also-bad"}};
  EXPECT_THROW(
      {
        try {
          serve::serve_request_from_json(bad);
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find("bad.json: key 'listen'"), std::string::npos)
              << e.what();
          throw;
        }
      },
      InputError);
  EXPECT_THROW(serve::serve_request_from_json({{"config", dir.file("serve.json")}, {"port", 1}}),
               InputError);
}

}  // namespace
}  // namespace gpdp::test
