/**
 * What rdma-reactive needs of the JVM it runs in, checked before any of its work starts:
 * {@link io.rdmareactive.internal.JvmFlags}, the two options every such JVM is started with. The check runs before
 * anything of Agrona is initialised (Agrona's own initialisation is what fails without one of them), so this package
 * sees the JDK only (an ArchUnit test keeps it so). Its class is public because the API, in another package, calls
 * it; it is not API.
 */
package io.rdmareactive.internal;
