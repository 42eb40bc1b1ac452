#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "conformance/target.h"

namespace tjr::conformance {

/// The `migrate` target (`tjrender migrate`'s library part): every input
/// file is rewritten, and every TrainJob is rendered as written at
/// trainer-v2.1 and as migrated at trainer-v2.3. The output objects are
///  - per changed file, `kind: MigratedFile` (apiVersion
///    `conformance.tjrender/v1`), `metadata.name` the file's name below
///    input/, `text` its new bytes (files left as they were produce none);
///  - per TrainJob that renders differently, `kind: RenderDifferences` with
///    the TrainJob's namespace and name and `differences`, one line each as
///    `tjrender migrate` reports them.
/// The diagnostics are the fields that cannot migrate and rendering errors.
/// `command`: `--manager NAME`, `--namespace NS`, `--target trainer-v2.3`
/// (default) or `--target trainer-pr3199-preview` (experimental
/// templateOverrides; nothing is rendered).
Result<TargetOutput> RunMigrateTarget(const std::vector<InputFile>& inputs,
                                      const std::vector<std::string>& command);

}  // namespace tjr::conformance
