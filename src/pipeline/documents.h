#pragma once

#include <string>
#include <vector>

#include "doc/node.h"
#include "source/loader.h"

namespace tjr::pipeline {

/// One already-parsed file: its name and documents in stream order.
struct ParsedFile {
  std::string name;
  std::vector<doc::Node> documents;
};

/// The ManifestSet that source::LoadManifests would make of these files had
/// it read them itself (for callers that hold parsed documents, such as the
/// conformance runner): Lists flattened, Trainer kinds kept and the rest
/// counted, metadata.name required, the namespace placed as `options` says
/// (cluster-scoped objects lose theirs), a repeated kind/namespace/name an
/// input error naming the first. Messages follow the loader's.
source::ManifestSet ManifestsFromDocuments(const std::vector<ParsedFile>& files,
                                           const source::LoadOptions& options = {});

}  // namespace tjr::pipeline
