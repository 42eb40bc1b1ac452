#pragma once

#include "schema/schema.h"

// Hand-built Go types for the unit tests (the schema loader lives in
// src/schema and is not needed here). Field names, types and patch tags are
// those of k8s.io/api v0.34.1 / apimachinery v0.34.1
// (/work/shared/reference/schemas/kubernetes/v1.34/struct-tags.json), for
// the part of core/v1 the tests touch; custom-JSON types (Quantity,
// IntOrString, Time) have no fields, as the loader models them.
namespace tjr::smp::testing {

const schema::Type& PodType();              ///< core/v1.Pod
const schema::Type& PodTemplateSpecType();  ///< core/v1.PodTemplateSpec
const schema::Type& PodSpecType();          ///< core/v1.PodSpec
/// The MergeItem struct of apimachinery's strategicpatch/patch_test.go.
const schema::Type& MergeItemType();
/// A map type (map[string]string), for the "not a struct" root error.
const schema::Type& StringMapType();

}  // namespace tjr::smp::testing
