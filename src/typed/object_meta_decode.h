#pragma once

#include <optional>
#include <string>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::typed {

/// Who decodes an object's `metadata` into metav1.ObjectMeta, with
/// sigs.k8s.io/json (case-sensitive keys, unknown keys ignored, the first
/// type error reported once the rest is read).
enum class MetadataDecoder {
  /// kubectl's resource builder (cli-runtime resource/mapper.go,
  /// metadataValidatingDecoder): the whole document into
  /// `metadataOnlyObject{TypeMeta; ObjectMeta "metadata"}`, so errors read
  /// "Go struct field ObjectMeta.metadata.labels".
  kKubectl,
  /// The API server's custom resource handler (apiextensions-apiserver
  /// pkg/apiserver/schema/objectmeta/coerce.go GetObjectMetaWithOptions):
  /// `metadata` alone into ObjectMeta, so "Go struct field ObjectMeta.labels".
  kCustomResourceHandler,
};

/// The decode error of `object`'s metadata (a wrong type anywhere in it:
/// labels given as a list, a label or annotation value that is not a
/// string, `generation: 1.5`, a bad creationTimestamp...), with Go's text,
/// the offending value's location and its field path from the object
/// ("metadata.labels.version"); nullopt when it decodes or there is none.
/// `kubernetes_policy` names the Kubernetes policy set whose ObjectMeta is
/// used ("kubernetes-v1.34").
std::optional<Diagnostic> DecodeObjectMeta(const doc::Node& object, MetadataDecoder decoder,
                                           const std::string& kubernetes_policy = "kubernetes-v1.34");

}  // namespace tjr::typed
