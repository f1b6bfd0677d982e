// The protobuf messages of autoscaling/v2 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** autoscaling/v2: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const AUTOSCALING_V2: MessagePackage = {
  name: 'autoscaling/v2',
  messages: {
    ContainerResourceMetricSource: [
      ['name', 1, 'string', 'e'],
      ['target', 2, 'MetricTarget', 'e'],
      ['container', 3, 'string', 'e'],
    ],
    ContainerResourceMetricStatus: [
      ['name', 1, 'string', 'e'],
      ['current', 2, 'MetricValueStatus', 'e'],
      ['container', 3, 'string', 'e'],
    ],
    CrossVersionObjectReference: [
      ['kind', 1, 'string', 'e'],
      ['name', 2, 'string', 'e'],
      ['apiVersion', 3, 'string'],
    ],
    ExternalMetricSource: [
      ['metric', 1, 'MetricIdentifier', 'e'],
      ['target', 2, 'MetricTarget', 'e'],
    ],
    ExternalMetricStatus: [
      ['metric', 1, 'MetricIdentifier', 'e'],
      ['current', 2, 'MetricValueStatus', 'e'],
    ],
    HPAScalingPolicy: [
      ['type', 1, 'string', 'e'],
      ['value', 2, 'int32', 'e'],
      ['periodSeconds', 3, 'int32', 'e'],
    ],
    HPAScalingRules: [
      ['stabilizationWindowSeconds', 3, 'int32', 'p'],
      ['selectPolicy', 1, 'string', 'p'],
      ['policies', 2, 'HPAScalingPolicy', 'r'],
      ['tolerance', 4, '@Quantity', 'p'],
    ],
    HorizontalPodAutoscaler: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'HorizontalPodAutoscalerSpec'],
      ['status', 3, 'HorizontalPodAutoscalerStatus'],
    ],
    HorizontalPodAutoscalerBehavior: [
      ['scaleUp', 1, 'HPAScalingRules', 'p'],
      ['scaleDown', 2, 'HPAScalingRules', 'p'],
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
      ['metrics', 4, 'MetricSpec', 'r'],
      ['behavior', 5, 'HorizontalPodAutoscalerBehavior', 'p'],
    ],
    HorizontalPodAutoscalerStatus: [
      ['observedGeneration', 1, 'int64', 'p'],
      ['lastScaleTime', 2, '@Time', 'p'],
      ['currentReplicas', 3, 'int32'],
      ['desiredReplicas', 4, 'int32', 'e'],
      ['currentMetrics', 5, 'MetricStatus', 're'],
      ['conditions', 6, 'HorizontalPodAutoscalerCondition', 'r'],
    ],
    MetricIdentifier: [
      ['name', 1, 'string', 'e'],
      ['selector', 2, 'meta/v1.LabelSelector', 'p'],
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
    MetricTarget: [
      ['type', 1, 'string', 'e'],
      ['value', 2, '@Quantity', 'p'],
      ['averageValue', 3, '@Quantity', 'p'],
      ['averageUtilization', 4, 'int32', 'p'],
    ],
    MetricValueStatus: [
      ['value', 1, '@Quantity', 'p'],
      ['averageValue', 2, '@Quantity', 'p'],
      ['averageUtilization', 3, 'int32', 'p'],
    ],
    ObjectMetricSource: [
      ['describedObject', 1, 'CrossVersionObjectReference', 'e'],
      ['target', 2, 'MetricTarget', 'e'],
      ['metric', 3, 'MetricIdentifier', 'e'],
    ],
    ObjectMetricStatus: [
      ['metric', 1, 'MetricIdentifier', 'e'],
      ['current', 2, 'MetricValueStatus', 'e'],
      ['describedObject', 3, 'CrossVersionObjectReference', 'e'],
    ],
    PodsMetricSource: [
      ['metric', 1, 'MetricIdentifier', 'e'],
      ['target', 2, 'MetricTarget', 'e'],
    ],
    PodsMetricStatus: [
      ['metric', 1, 'MetricIdentifier', 'e'],
      ['current', 2, 'MetricValueStatus', 'e'],
    ],
    ResourceMetricSource: [
      ['name', 1, 'string', 'e'],
      ['target', 2, 'MetricTarget', 'e'],
    ],
    ResourceMetricStatus: [
      ['name', 1, 'string', 'e'],
      ['current', 2, 'MetricValueStatus', 'e'],
    ],
  },
};
