#include "app/render_config.h"

#include <filesystem>
#include <system_error>

#include "source/disk_tree.h"
#include "source/glob.h"
#include "yaml/reader.h"

namespace tjr::app {
namespace {

Result<std::vector<std::string>> StringList(const doc::Field& field) {
  if (!field.value.is_sequence()) {
    return AsInputError(
        MakeError(field.value.location(), field.key, "must be a list of glob patterns"));
  }
  std::vector<std::string> patterns;
  for (const doc::Node& item : field.value.items()) {
    if (!item.is_string() || item.string_value().empty()) {
      return AsInputError(
          MakeError(item.location(), field.key, "must be a list of non-empty strings"));
    }
    if (item.string_value().size() > source::kMaxGlobBytes) {
      return AsInputError(MakeError(item.location(), field.key,
                                    "a glob pattern longer than " + std::to_string(source::kMaxGlobBytes) +
                                        " bytes (PATH_MAX) cannot name a path"));
    }
    patterns.push_back(item.string_value());
  }
  return patterns;
}

// `ignore:` is a list of {rule, reason}; a reason is required, so every
// silenced warning says why in the repository.
Status ReadIgnoreList(const doc::Node& list, std::vector<report::IgnoreRule>* rules) {
  if (!list.is_sequence()) {
    return MakeError(list.location(), "ignore", "must be a list of {rule: ID, reason: TEXT}");
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const doc::Node& entry = list[i];
    std::string path = "ignore[" + std::to_string(i) + "]";
    if (!entry.is_mapping()) {
      return MakeError(entry.location(), path, "must be a mapping {rule: ID, reason: TEXT}");
    }
    report::IgnoreRule rule;
    for (const doc::Field& field : entry.fields()) {
      if ((field.key != "rule" && field.key != "reason") || !field.value.is_string()) {
        return MakeError(field.value.location(), path + "." + field.key,
                         "only `rule` and `reason`, both strings, are allowed");
      }
      (field.key == "rule" ? rule.rule : rule.reason) = field.value.string_value();
    }
    if (rule.rule.empty()) return MakeError(entry.location(), path + ".rule", "is required");
    if (rule.reason.empty()) {
      return MakeError(entry.location(), path + ".reason",
                       "is required: say why the rule is ignored");
    }
    rules->push_back(std::move(rule));
  }
  return Ok();
}

}  // namespace

std::string RepoConfigPath(const source::Tree& tree, const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  // Start at the first PATH (a file's own folder), else at "."; then each
  // parent folder up to the repository's root (the folder holding .git, or
  // the root of a Git revision), as linters look up their configuration, so
  // `render repo/trainjobs` and a hook run on staged files find the
  // repository's file.
  fs::path dir = ".";
  if (!paths.empty() && paths.front() != "-") {
    fs::path first = paths.front();
    Result<source::EntryType> type = tree.Stat(paths.front());
    dir = type.ok() && *type == source::EntryType::kDirectory ? first : first.parent_path();
    if (dir.empty()) dir = ".";
  }
  auto config_in = [](const fs::path& folder) { return (folder / kRepoConfigFile).lexically_normal().string(); };
  const std::string start = config_in(dir);
  for (int depth = 0; depth < 64; ++depth) {
    std::string candidate = config_in(dir);
    if (Result<source::EntryType> type = tree.Stat(candidate); type.ok() && *type == source::EntryType::kFile) {
      return candidate;
    }
    if (tree.Stat((dir / ".git").lexically_normal().string()).ok()) break;
    // A Git revision has nothing above its root; on disk the file system's
    // root is its own parent.
    Result<std::string> here = tree.Resolve(dir.lexically_normal().string());
    Result<std::string> parent = tree.Resolve((dir / "..").lexically_normal().string());
    if (!here.ok() || !parent.ok() || *here == *parent) break;
    dir /= "..";
  }
  return start;
}

std::string RepoConfigPath(const std::vector<std::string>& paths) {
  return RepoConfigPath(source::DiskTree(), paths);
}

Result<RepoConfig> ReadRepoConfig(const source::Tree& tree, const std::string& path) {
  if (!tree.Stat(path).ok()) return RepoConfig();
  Result<std::string> text = tree.Read(path, std::size_t{1} << 20);
  if (!text.ok()) return AsInputError(text.take_error());
  return ParseRepoConfig(*text, path);
}

Result<RepoConfig> ReadRepoConfig(const std::string& path) {
  return ReadRepoConfig(source::DiskTree(), path);
}

Result<RepoConfig> ParseRepoConfig(const std::string& text, const std::string& name) {
  RepoConfig config;
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(text, name);
  if (!documents.ok()) return AsInputError(documents.take_error());
  Location file{InternSourceName(name)};
  if (documents->empty()) return config;
  if (documents->size() != 1 || !(*documents)[0].is_mapping()) {
    return AsInputError(MakeError(file, "", "must hold one mapping (e.g. `target: trainer-v2.1`)"));
  }
  for (const doc::Field& field : (*documents)[0].fields()) {
    if (field.key == "include" || field.key == "exclude") {
      Result<std::vector<std::string>> patterns = StringList(field);
      if (!patterns.ok()) return patterns.take_error();
      (field.key == "include" ? config.filter.include : config.filter.exclude) =
          std::move(*patterns);
      continue;
    }
    if (field.key == "ignore") {
      Status read = ReadIgnoreList(field.value, &config.ignore);
      if (!read.ok()) return AsInputError(read.take_error());
      continue;
    }
    if (field.key != "target") {
      return AsInputError(MakeError(field.key_location.known() ? field.key_location : file, "",
                                    "unknown setting '" + field.key +
                                        "' (known: target, ignore, include, exclude)"));
    }
    if (!field.value.is_string()) {
      return AsInputError(MakeError(field.value.location(), "target", "must be a string"));
    }
    config.target = field.value.string_value();
  }
  return config;
}

}  // namespace tjr::app
