#!/usr/bin/env python3
"""Checks the hand-derived expected.yaml of JobSet `merge` cases with real kubectl.

kubectl cannot patch a JobSet (a CRD) locally, so the expectation of a JobSet case is
derived by hand from the spec. This script recomputes it from two things kubectl can do:

* each replicatedJobs element's `template` is a batch/v1 JobTemplateSpec, the type of a
  CronJob's spec.jobTemplate, so kubectl merges it as a CronJob;
* with jobset v0.12 the replicatedJobs list merges by name, which orders elements exactly
  as any merge-by-name list, so the order comes from kubectl merging a PodTemplate's
  containers list of the same names. With jobset v0.10 the list has no strategy and the
  patch list replaces it.

Only what Trainer's patches touch is supported (spec.replicatedJobs with name, scalar
fields and template); anything else is reported. Usage:

  conformance/jobset-crosscheck.py conformance/merge/rp-*
"""
import copy
import glob
import os
import subprocess
import sys
import tempfile

import yaml


def kubectl_patch(obj, patch):
    with tempfile.TemporaryDirectory() as work:
        obj_path = os.path.join(work, 'object.yaml')
        patch_path = os.path.join(work, 'patch.yaml')
        with open(obj_path, 'w') as f:
            yaml.safe_dump(obj, f)
        with open(patch_path, 'w') as f:
            yaml.safe_dump(patch, f)
        out = subprocess.run(['kubectl', 'patch', '--local', '-f', obj_path, '--type',
                              'strategic', '--patch-file', patch_path, '-o', 'yaml'],
                             check=True, capture_output=True, text=True).stdout
    return yaml.safe_load(out)


def merge_job_template(original, patch):
    cronjob = {'apiVersion': 'batch/v1', 'kind': 'CronJob', 'metadata': {'name': 'x'},
               'spec': {'schedule': '@daily', 'jobTemplate': original}}
    return kubectl_patch(cronjob, {'spec': {'jobTemplate': patch}})['spec']['jobTemplate']


def merged_name_order(original_names, patch_names):
    pod_template = {'apiVersion': 'v1', 'kind': 'PodTemplate', 'metadata': {'name': 'x'},
                    'template': {'spec': {'containers': [{'name': n} for n in original_names]}}}
    patch = {'template': {'spec': {'containers': [{'name': n} for n in patch_names]}}}
    result = kubectl_patch(pod_template, patch)
    return [c['name'] for c in result['template']['spec']['containers']]


def apply_patch(jobset, patch, version):
    if set(patch) != {'spec'} or set(patch['spec']) != {'replicatedJobs'}:
        raise ValueError('patch touches more than spec.replicatedJobs')
    patch_jobs = patch['spec']['replicatedJobs']
    if version == 'v0.10':
        jobset['spec']['replicatedJobs'] = copy.deepcopy(patch_jobs)
        return
    current = {job['name']: job for job in jobset['spec']['replicatedJobs']}
    order = merged_name_order([j['name'] for j in jobset['spec']['replicatedJobs']],
                              [j['name'] for j in patch_jobs])
    for patch_job in patch_jobs:
        name = patch_job['name']
        if name not in current:
            current[name] = copy.deepcopy(patch_job)
            continue
        job = current[name]
        for key, value in patch_job.items():
            if key == 'template':
                job['template'] = merge_job_template(job.get('template', {}), value)
            elif isinstance(value, (dict, list)):
                raise ValueError('replicatedJobs[%s].%s is not a scalar' % (name, key))
            else:
                job[key] = value
    jobset['spec']['replicatedJobs'] = [current[n] for n in order]


def check(case_dir):
    case = yaml.safe_load(open(os.path.join(case_dir, 'case.yaml')))
    command = case.get('command', [])
    if isinstance(command, str):
        command = command.split()
    version = command[command.index('--jobset-version') + 1]
    jobset = yaml.safe_load(open(os.path.join(case_dir, 'input', 'object.yaml')))
    if jobset.get('kind') != 'JobSet':
        return None
    for patch_file in sorted(glob.glob(os.path.join(case_dir, 'input', 'patch*.yaml'))):
        for patch in yaml.safe_load_all(open(patch_file)):
            apply_patch(jobset, patch, version)
    expected = yaml.safe_load(open(os.path.join(case_dir, 'expected.yaml')))
    return jobset == expected, jobset


def main(dirs):
    failed = 0
    for case_dir in dirs:
        result = check(case_dir)
        if result is None:
            continue
        ok, computed = result
        print(('ok   ' if ok else 'DIFF ') + case_dir)
        if not ok:
            failed += 1
            print(yaml.safe_dump(computed, sort_keys=True), file=sys.stderr)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
