package io.rdmareactive.spi;

/**
 * Limits of a device.
 *
 * @param maxSge               gather/scatter entries per work request
 * @param maxInlineData        bytes of inline data per send
 * @param maxQueuePairDepth    work requests a send or receive queue can hold
 * @param maxCompletionQueueCapacity completions a completion queue can hold
 * @param maxMessageLength     bytes a single work request can move
 * @param maxRegisteredBytes   bytes that may be registered at once (the locked-memory limit on verbs)
 * @param maxPrivateDataLength bytes of private data a connect request, and its accept, can carry (rdma_cm: 56, what
 *                             an InfiniBand CM REQ carries for the connection manager's user)
 * @param maxRejectPrivateDataLength bytes of private data a reject can carry (rdma_cm: 148, what an InfiniBand CM REJ
 *                             carries; RoCE uses the same CM)
 */
public record DeviceLimits(int maxSge, int maxInlineData, int maxQueuePairDepth, int maxCompletionQueueCapacity,
                           long maxMessageLength, long maxRegisteredBytes, int maxPrivateDataLength,
                           int maxRejectPrivateDataLength) {
}
