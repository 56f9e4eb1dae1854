/**
 * How the annotations are served; not API. {@link io.rdmareactive.micronaut.internal.RdmaListenerProcessor} finds
 * the listener methods, {@link io.rdmareactive.micronaut.internal.RdmaServers} binds one server per server name with a
 * {@code StreamRouter} that routes each stream by the channel named in its first message's envelope
 * ({@code Envelope}: the core protocol carries bodies only), {@link io.rdmareactive.micronaut.internal.RdmaClientAdvice}
 * implements client interfaces over {@link io.rdmareactive.micronaut.internal.ReconnectingConnection}s, and
 * {@link io.rdmareactive.micronaut.internal.RdmaLifecycle} orders startup and shutdown.
 */
package io.rdmareactive.micronaut.internal;
