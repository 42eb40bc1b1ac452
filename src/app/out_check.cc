#include "app/out_check.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

#include "base/file.h"
#include "batch/output_tree.h"

namespace tjr::app {
namespace fs = std::filesystem;

namespace {

Diagnostic Stale(const std::string& file, const char* rule, std::string message) {
  Diagnostic d = MakeError(Location{InternSourceName(file)}, "", std::move(message));
  d.rule = rule;
  return d;
}

}  // namespace

void OutTreeCheck::Expect(const std::string& file, const std::string& bytes) {
  std::string key = fs::path(file).lexically_normal().string();
  expected_.insert(key);
  std::error_code error;
  if (!fs::exists(file, error)) {
    findings_.push_back(Stale(file, "rendered-missing", "missing from the rendered tree: run " + rerun_));
    return;
  }
  Result<std::string> current = ReadFile(file);
  if (!current.ok() || *current != bytes) {
    findings_.push_back(Stale(file, "rendered-stale", "stale: the TrainJob renders differently now; run " + rerun_));
  }
}

void OutTreeCheck::Refused(const std::string& file, const Diagnostic& error) {
  std::string key = fs::path(file).lexically_normal().string();
  expected_.insert(key);
  std::error_code missing;
  if (!fs::exists(file, missing)) return;
  findings_.push_back(Stale(file, "rendered-stale",
                            "stale: its TrainJob no longer renders, the cluster would refuse it (" +
                                error.ToString() + "); fix the TrainJob, then run " + rerun_));
}

Diagnostics OutTreeCheck::Finish() {
  const std::set<std::string> indexed = batch::ReadOutputIndex(dir_);
  std::vector<std::string> extra;
  std::error_code error;
  if (fs::is_directory(dir_, error)) {
    for (auto it = fs::recursive_directory_iterator(dir_, error); !error && it != fs::recursive_directory_iterator();
         it.increment(error)) {
      if (!it->is_regular_file(error)) continue;
      std::string ext = it->path().extension().string();
      if (ext != ".yaml" && ext != ".json") continue;
      std::string key = it->path().lexically_normal().string();
      if (!expected_.count(key)) extra.push_back(it->path().string());
    }
  }
  std::sort(extra.begin(), extra.end());
  Diagnostics out = std::move(findings_);
  for (const std::string& file : extra) {
    const std::string relative = fs::path(file).lexically_relative(dir_).generic_string();
    if (indexed.count(relative) != 0) {
      out.push_back(Stale(file, "rendered-extra",
                          "its TrainJob is gone: run " + rerun_ + ", which removes the files of TrainJobs "
                          "that no longer exist"));
    } else {
      out.push_back(Stale(file, "rendered-extra",
                          "no TrainJob renders to this file, and tjrender did not write it (it is not in " +
                              dir_ + "/" + batch::kOutputIndexFile + "): delete it or move it out of " + dir_));
    }
  }
  return out;
}

}  // namespace tjr::app
