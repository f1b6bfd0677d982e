// The protobuf messages of autoscaling/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** autoscaling/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const AUTOSCALING_V1: MessagePackage = {
  name: 'autoscaling/v1',
  messages: {
    ContainerResourceMetricSource: [
      ['name', 1, 'string', 'e'],
      ['targetAverageUtilization', 2, 'int32', 'p'],
      ['targetAverageValue', 3, '@Quantity', 'p'],
      ['container', 5, 'string', 'e'],
    ],
    ContainerResourceMetricStatus: [
      ['name', 1, 'string', 'e'],
      ['currentAverageUtilization', 2, 'int32', 'p'],
      ['currentAverageValue', 3, '@Quantity', 'e'],
      ['container', 4, 'string', 'e'],
    ],
    CrossVersionObjectReference: [
      ['kind', 1, 'string', 'e'],
      ['name', 2, 'string', 'e'],
      ['apiVersion', 3, 'string'],
    ],
    ExternalMetricSource: [
      ['metricName', 1, 'string', 'e'],
      ['metricSelector', 2, 'meta/v1.LabelSelector', 'p'],
      ['targetValue', 3, '@Quantity', 'p'],
      ['targetAverageValue', 4, '@Quantity', 'p'],
    ],
    ExternalMetricStatus: [
      ['metricName', 1, 'string', 'e'],
      ['metricSelector', 2, 'meta/v1.LabelSelector', 'p'],
      ['currentValue', 3, '@Quantity', 'e'],
      ['currentAverageValue', 4, '@Quantity', 'p'],
    ],
    HorizontalPodAutoscaler: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'HorizontalPodAutoscalerSpec'],
      ['status', 3, 'HorizontalPodAutoscalerStatus'],
    ],
    HorizontalPodAutoscalerCondition: [
      ['type', 1, 'string', 'e'],
      ['status', 2, 'string', 'e'],
      ['lastTransitionTime', 3, '@Time'],
      ['reason', 4, 'string'],
      ['message', 5, 'string'],
      ['observedGeneration', 6, 'int64', 'p'],
    ],
    HorizontalPodAutoscalerList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'HorizontalPodAutoscaler', 're'],
    ],
    HorizontalPodAutoscalerSpec: [
      ['scaleTargetRef', 1, 'CrossVersionObjectReference', 'e'],
      ['minReplicas', 2, 'int32', 'p'],
      ['maxReplicas', 3, 'int32', 'e'],
      ['targetCPUUtilizationPercentage', 4, 'int32', 'p'],
    ],
    HorizontalPodAutoscalerStatus: [
      ['observedGeneration', 1, 'int64', 'p'],
      ['lastScaleTime', 2, '@Time', 'p'],
      ['currentReplicas', 3, 'int32', 'e'],
      ['desiredReplicas', 4, 'int32', 'e'],
      ['currentCPUUtilizationPercentage', 5, 'int32', 'p'],
    ],
    MetricSpec: [
      ['type', 1, 'string', 'e'],
      ['object', 2, 'ObjectMetricSource', 'p'],
      ['pods', 3, 'PodsMetricSource', 'p'],
      ['resource', 4, 'ResourceMetricSource', 'p'],
      ['containerResource', 7, 'ContainerResourceMetricSource', 'p'],
      ['external', 5, 'ExternalMetricSource', 'p'],
    ],
    MetricStatus: [
      ['type', 1, 'string', 'e'],
      ['object', 2, 'ObjectMetricStatus', 'p'],
      ['pods', 3, 'PodsMetricStatus', 'p'],
      ['resource', 4, 'ResourceMetricStatus', 'p'],
      ['containerResource', 7, 'ContainerResourceMetricStatus', 'p'],
      ['external', 5, 'ExternalMetricStatus', 'p'],
    ],
    ObjectMetricSource: [
      ['target', 1, 'CrossVersionObjectReference', 'e'],
      ['metricName', 2, 'string', 'e'],
      ['targetValue', 3, '@Quantity', 'e'],
      ['selector', 4, 'meta/v1.LabelSelector', 'p'],
      ['averageValue', 5, '@Quantity', 'p'],
    ],
    ObjectMetricStatus: [
      ['target', 1, 'CrossVersionObjectReference', 'e'],
      ['metricName', 2, 'string', 'e'],
      ['currentValue', 3, '@Quantity', 'e'],
      ['selector', 4, 'meta/v1.LabelSelector', 'p'],
      ['averageValue', 5, '@Quantity', 'p'],
    ],
    PodsMetricSource: [
      ['metricName', 1, 'string', 'e'],
      ['targetAverageValue', 2, '@Quantity', 'e'],
      ['selector', 3, 'meta/v1.LabelSelector', 'p'],
    ],
    PodsMetricStatus: [
      ['metricName', 1, 'string', 'e'],
      ['currentAverageValue', 2, '@Quantity', 'e'],
      ['selector', 3, 'meta/v1.LabelSelector', 'p'],
    ],
    ResourceMetricSource: [
      ['name', 1, 'string', 'e'],
      ['targetAverageUtilization', 2, 'int32', 'p'],
      ['targetAverageValue', 3, '@Quantity', 'p'],
    ],
    ResourceMetricStatus: [
      ['name', 1, 'string', 'e'],
      ['currentAverageUtilization', 2, 'int32', 'p'],
      ['currentAverageValue', 3, '@Quantity', 'e'],
    ],
    Scale: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'ScaleSpec'],
      ['status', 3, 'ScaleStatus'],
    ],
    ScaleSpec: [['replicas', 1, 'int32']],
    ScaleStatus: [
      ['replicas', 1, 'int32', 'e'],
      ['selector', 2, 'string'],
    ],
  },
};
