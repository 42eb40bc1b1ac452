#pragma once

#include "admission/object_errors.h"
#include "doc/node.h"

// apimachinery's ObjectMeta validation (pkg/api/validation/objectmeta.go and
// metav1 validation): names, namespaces, labels and annotations.
namespace tjr::admission {

/// How the object's name is checked (the ValidateNameFunc its kind uses).
enum class NameRule { kDns1123Subdomain, kDns1123Label, kDns1035Label };

/// ValidateObjectMeta(meta, requiresNamespace, nameFn, fldPath) for an
/// object being created; `path` is "metadata".
void ValidateObjectMeta(const doc::Node* metadata, bool namespaced, NameRule name_rule, const Path& path,
                        ObjectErrors* errors);

/// ValidateLabels (metav1 validation): keys qualified names, values label
/// values.
void ValidateLabels(const doc::Node* labels, const Path& path, ObjectErrors* errors);

/// ValidateAnnotations: keys qualified names (lower-cased), total size at
/// most 256 KiB.
void ValidateAnnotations(const doc::Node* annotations, const Path& path, ObjectErrors* errors);

}  // namespace tjr::admission
