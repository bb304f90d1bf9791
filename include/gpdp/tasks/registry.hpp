#pragma once
// Task kinds by name. Each module that defines tasks lists them in one function returning
// std::vector<TaskKind> (e.g. experiments::utility_tasks()), declared in its own headers and
// needing only the header-only task.hpp / executor.hpp (no link to this layer); builtin_registry()
// adds every such list, once (src/commands/builtin_tasks.cpp, the commands layer above those
// modules, defines it and run_task: add a module there; this folder includes none of them, and a
// program that calls either links gpdp::commands). Registration is explicit:
// self-registering static initialisers in a static library are dropped by the linker when nothing
// else references their object file.
#include <map>
#include <string>
#include <vector>

#include "gpdp/tasks/task.hpp"

namespace gpdp::tasks {

class Registry {
 public:
  // Throws InputError when `kind` is already registered.
  void add(const std::string& kind, TaskFunction function);
  void add(const std::vector<TaskKind>& kinds);
  // Runs task.params through the function of task.kind; an unknown kind is an InputError that
  // lists the known ones.
  nlohmann::json run(const Task& task) const;
  std::vector<std::string> kinds() const;

 private:
  std::map<std::string, TaskFunction> functions_;
};

// Every task kind of the library.
const Registry& builtin_registry();

// builtin_registry().run(task): what a worker runs.
nlohmann::json run_task(const Task& task);

}  // namespace gpdp::tasks
