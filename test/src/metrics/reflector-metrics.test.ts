// Tests of the reflector metrics sink: names and labels, shared families, gauges read at scrape time.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { reflectorMetrics } from '../../../src/metrics/reflector-metrics.ts';

describe('reflectorMetrics', () => {
  it('counts restarts and lists by resource and reason', async () => {
    const registry = new Registry();
    const pods = reflectorMetrics(registry).sink('v1/pods');
    pods.restarted({ reason: 'expired', during: 'watch' });
    pods.restarted({ reason: 'expired', during: 'watchList' });
    pods.listed('expired');
    const text = await registry.metrics();
    expect(text).toContain('kube_rx_reflector_watch_restarts_total{resource="v1/pods",reason="expired"} 2');
    expect(text).toContain('kube_rx_reflector_lists_total{resource="v1/pods",reason="expired"} 1');
    expect(text).toContain('kube_rx_reflector_lists_total{resource="v1/pods",reason="initial"} 0');
  });

  it('shares the families of one registry between calls, and reads the gauges of every call', async () => {
    const registry = new Registry();
    reflectorMetrics(registry).sink('v1/pods').restarted({ reason: 'stalled', during: 'watch' });
    const nodes = reflectorMetrics(registry).sink('v1/nodes');
    nodes.restarted({ reason: 'stalled', during: 'watch' });
    nodes.track(() => ({ resourceVersion: '12', lastEventAt: 5000 }));
    const text = await registry.metrics();
    expect(text).toContain('kube_rx_reflector_watch_restarts_total{resource="v1/pods",reason="stalled"} 1');
    expect(text).toContain('kube_rx_reflector_watch_restarts_total{resource="v1/nodes",reason="stalled"} 1');
    expect(text).toContain('kube_rx_reflector_last_resource_version{resource="v1/nodes"} 12');
    expect(text).toContain('kube_rx_reflector_last_event_timestamp_seconds{resource="v1/nodes"} 5');
  });

  it('reports the latest running stream of a resource; a non-numeric resourceVersion is left out', async () => {
    const registry = new Registry();
    const sink = reflectorMetrics(registry).sink('v1/pods');
    const stopOld = sink.track(() => ({ resourceVersion: '3', lastEventAt: 1000 }));
    const stopNew = sink.track(() => ({ resourceVersion: 'opaque-rv', lastEventAt: 2000 }));
    let text = await registry.metrics();
    expect(text).not.toContain('kube_rx_reflector_last_resource_version{');
    expect(text).toContain('kube_rx_reflector_last_event_timestamp_seconds{resource="v1/pods"} 2');
    stopNew();
    text = await registry.metrics();
    expect(text).toContain('kube_rx_reflector_last_resource_version{resource="v1/pods"} 3');
    stopOld();
  });
});
