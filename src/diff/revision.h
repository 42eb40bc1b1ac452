#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "diff/compare.h"
#include "doc/node.h"
#include "pipeline/pipeline.h"
#include "source/loader.h"

namespace tjr::diff {

/// Renders one revision's manifest set through the pipeline and keeps every
/// TrainJob's result. `only`, when given, names the TrainJobs to render
/// ("namespace/name"); the others are skipped, while every runtime is still
/// prepared (a TrainJob needs its runtime, and a refused runtime is a
/// finding of the revision). The loader's diagnostics become the revision's
/// own findings, before the pipeline's.
RevisionRender RenderRevision(const source::ManifestSet& manifests,
                              const pipeline::PipelineOptions& options,
                              const std::set<std::string>* only = nullptr);

/// Puts `prefix` before the file name of every finding of `revision`, so
/// that "jobs/a.yaml" of a Git revision reads "main:jobs/a.yaml" (git's
/// REV:PATH) when both revisions name their files alike.
void QualifyFiles(RevisionRender* revision, const std::string& prefix);

/// BASE's TrainJobs as the API server hands them to an update, by
/// "namespace/name": the previous versions that make HEAD's TrainJobs
/// updates (PipelineOptions::previous_trainjobs). They were stored with the
/// CRD defaults of `stored_by` (BASE's Trainer release) and are read with
/// those of `read_by` (HEAD's) filled in on top, as the API server defaults
/// objects read from etcd; an unknown target is taken as trainer-v2.1. A
/// TrainJob whose defaulting fails is left out (it was never stored).
/// The runtime snapshots BASE's TrainJobs left in the cluster, by
/// "namespace/name" (PipelineOptions::runtime_snapshots): each rendered
/// `<trainjob>-runtime-snapshot` ConfigMap. A TrainJob BASE refused, or a
/// BASE target without snapshots, leaves none.
std::map<std::string, doc::Node> RuntimeSnapshots(const RevisionRender& base);

std::map<std::string, doc::Node> StoredTrainJobs(const source::ManifestSet& base, std::string_view stored_by,
                                                 std::string_view read_by);

}  // namespace tjr::diff
