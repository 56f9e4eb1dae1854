/**
 * What the tests of every module share, one copy each: {@link io.rdmareactive.testsupport.ChildJvmLauncher} starts a
 * second JVM with this build's flags and class path and hands back a {@link io.rdmareactive.testsupport.ChildJvm}
 * whose output is kept and whose waits are bounded; {@link io.rdmareactive.testsupport.AllocationMeter} counts the
 * heap bytes threads allocate while a hot path runs; {@link io.rdmareactive.testsupport.ShmTestDirectory} gives a
 * test a private shared-memory directory, made and deleted by
 * {@link io.rdmareactive.testsupport.ShmTestDirectoryExtension} with
 * {@link io.rdmareactive.testsupport.ShmTestDirectories} (which also serves what JUnit does not run).
 */
package io.rdmareactive.testsupport;
