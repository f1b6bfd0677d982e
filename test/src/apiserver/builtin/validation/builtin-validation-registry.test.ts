// The per-kind rules wired into the registry: refused creates and updates answer 422 Invalid with every cause, valid writes pass.
import { describe, expect, it } from 'vitest';
import { registryFixture } from '../../admission/registry-fixture.ts';

type Cause = { field: string; message: string; type: string };
type WireCause = { field: string; message: string; type?: string; reason?: string };
/** The refused call's code, message and causes; a cause's type is read from `reason`, its wire name, or `type`. */
function refusal(run: () => unknown): { code?: number; message?: string; causes: Cause[] } {
  try {
    run();
    return { causes: [] };
  } catch (error) {
    const status = (
      error as { status?: { code?: number; message?: string; details?: { causes?: WireCause[] } } }
    ).status;
    const causes = (status?.details?.causes ?? []).map(({ field, message, type, reason }) => ({
      type: (reason ?? type)!,
      field,
      message,
    }));
    return { code: status?.code, message: status?.message, causes };
  }
}

const container = { name: 'app', image: 'nginx:1.27' };

describe('per-kind validation in the registry', () => {
  it('refuses a pod whose request exceeds its limit, as kube-apiserver words it', () => {
    const { create } = registryFixture();
    const pod = {
      metadata: { name: 'p' },
      spec: {
        containers: [{ ...container, resources: { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } } }],
      },
    };
    expect(refusal(() => create('pods', 'default', pod))).toEqual({
      code: 422,
      message:
        'Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi',
      causes: [
        {
          type: 'FieldValueInvalid',
          field: 'spec.containers[0].resources.requests',
          message: 'Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi',
        },
      ],
    });
  });

  it('reports every cause of one object, the generic and the kind’s together', () => {
    const { create } = registryFixture();
    const job = {
      metadata: { name: 'j' },
      spec: { backoffLimit: -1, template: { spec: { containers: [{ name: 'app' }] } } },
    };
    expect(
      refusal(() => create('batch/jobs', 'default', job)).causes.map((c) => `${c.type} ${c.field}`),
    ).toEqual([
      'FieldValueRequired spec.template.spec.containers[0].image',
      'FieldValueInvalid spec.backoffLimit',
      'FieldValueRequired spec.template.spec.restartPolicy',
    ]);
  });

  it('accepts what the server itself defaults (a pod, a deployment, a job, a service)', () => {
    const { create, get } = registryFixture();
    create('pods', 'default', { metadata: { name: 'p' }, spec: { containers: [container] } });
    create('apps/deployments', 'default', {
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container] } },
      },
    });
    create('batch/jobs', 'default', {
      metadata: { name: 'j' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [container] } } },
    });
    create('services', 'default', { metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } });
    expect(get('batch/jobs', 'default', 'j').metadata?.name).toBe('j');
  });

  it('refuses an update that changes a field fixed at creation', () => {
    const { create, registry, def } = registryFixture();
    const job = create('batch/jobs', 'default', {
      metadata: { name: 'j' },
      spec: { completions: 2, template: { spec: { restartPolicy: 'Never', containers: [container] } } },
    });
    const changed = { ...job, spec: { ...(job.spec as object), completions: 3 } };
    expect(refusal(() => registry.update(def('batch/jobs'), 'default', 'j', changed)).causes).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec.completions',
        message: 'Invalid value: 3: field is immutable',
      },
    ]);
  });
});
