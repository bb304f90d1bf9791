#include "gpdp/tasks/together.hpp"

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "gpdp/error.hpp"

namespace gpdp::tasks {

namespace {

// What the drivers and the round loop share, guarded by `mutex`.
struct Rounds {
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t busy = 0;  // drivers neither waiting in map() nor finished
};

// A driver's executor: map() hands its list to the round loop and waits for the results.
class Member final : public Executor {
 public:
  explicit Member(Rounds& rounds) : rounds_(rounds) {}

  std::vector<nlohmann::json> map(const std::vector<Task>& tasks, const Progress&) override {
    std::unique_lock<std::mutex> lock(rounds_.mutex);
    tasks_ = &tasks;
    answered_ = false;
    --rounds_.busy;
    rounds_.changed.notify_all();
    rounds_.changed.wait(lock, [this] { return answered_; });
    tasks_ = nullptr;
    if (error_) std::rethrow_exception(error_);
    return std::move(results_);
  }

  // The round loop's side (under the mutex).
  const std::vector<Task>* waiting() const {
    return tasks_ != nullptr && !answered_ ? tasks_ : nullptr;
  }
  void answer(std::vector<nlohmann::json> results, std::exception_ptr error) {
    results_ = std::move(results);
    error_ = std::move(error);
    answered_ = true;
  }

 private:
  Rounds& rounds_;
  const std::vector<Task>* tasks_ = nullptr;
  bool answered_ = false;
  std::vector<nlohmann::json> results_;
  std::exception_ptr error_;
};

// One round: the waiting drivers' lists as one map, the results (or the error) handed back.
void run_round(Executor& executor, const std::vector<Member*>& waiting,
               std::unique_lock<std::mutex>& lock, const Progress& progress) {
  std::vector<Task> list;
  for (const Member* m : waiting) {
    const auto& tasks = *m->waiting();
    list.insert(list.end(), tasks.begin(), tasks.end());
  }
  lock.unlock();
  std::vector<nlohmann::json> results;
  std::exception_ptr error;
  try {
    results = executor.map(list, progress);
    require(results.size() == list.size(), "run_together: the executor lost results");
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  std::size_t next = 0;
  for (Member* m : waiting) {
    const std::size_t count = m->waiting()->size();
    std::vector<nlohmann::json> mine;
    if (!error) {
      const auto first = results.begin() + static_cast<std::ptrdiff_t>(next);
      mine.assign(std::make_move_iterator(first),
                  std::make_move_iterator(first + static_cast<std::ptrdiff_t>(count)));
    }
    next += count;
    m->answer(std::move(mine), error);
  }
}

}  // namespace

void run_together(Executor& executor, const std::vector<Driver>& drivers,
                  const Progress& progress) {
  Rounds rounds;
  std::vector<std::unique_ptr<Member>> members;
  for (std::size_t i = 0; i < drivers.size(); ++i)
    members.push_back(std::make_unique<Member>(rounds));
  std::vector<std::exception_ptr> errors(drivers.size());
  std::vector<std::thread> threads;
  rounds.busy = drivers.size();
  for (std::size_t i = 0; i < drivers.size(); ++i) {
    auto body = [&, i] {
      try {
        drivers[i](*members[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(rounds.mutex);
      --rounds.busy;
      rounds.changed.notify_all();
    };
    try {
      threads.emplace_back(body);
    } catch (...) {  // no thread for drivers i, i + 1, ...: they fail, the others run on
      const std::lock_guard<std::mutex> lock(rounds.mutex);
      for (std::size_t k = i; k < drivers.size(); ++k) errors[k] = std::current_exception();
      rounds.busy -= drivers.size() - i;
      break;
    }
  }
  {
    std::unique_lock<std::mutex> lock(rounds.mutex);
    for (;;) {
      rounds.changed.wait(lock, [&] { return rounds.busy == 0; });
      std::vector<Member*> waiting;
      for (const auto& m : members) {
        if (m->waiting() != nullptr) waiting.push_back(m.get());
      }
      if (waiting.empty()) break;  // every driver has finished
      run_round(executor, waiting, lock, progress);
      rounds.busy = waiting.size();
      rounds.changed.notify_all();
    }
  }
  for (auto& t : threads) t.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace gpdp::tasks
