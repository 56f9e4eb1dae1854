/**
 * Two Micronaut services over rdma-reactive: {@link io.rdmareactive.samples.micronaut.PricingService} serves
 * {@link io.rdmareactive.samples.micronaut.PricingListener}'s channels, and
 * {@link io.rdmareactive.samples.micronaut.OrderService} calls them through
 * {@link io.rdmareactive.samples.micronaut.PricingClient}: fire-and-forget, request/response and a backpressured
 * stream, over the shared-memory provider by default. The commands and what they print are in docs/micronaut.md.
 */
package io.rdmareactive.samples.micronaut;
