/**
 * What the tests of every module need to start processes, find test data and check landed rows: on the JDK alone (so
 * {@code ourios-core} can use it too, and the chaos and bench harnesses can ship it):
 *
 * <ul>
 *   <li>{@link dev.ourios.testkit.ChildJvm}: a child JVM on the current class path (or a jar), its output drained
 *       to memory and files, {@code awaitLine}, {@code waitFor} that kills on timeout, {@code kill9},
 *       {@code terminate};</li>
 *   <li>{@link dev.ourios.testkit.S3Proxy}: a real S3-compatible server (s3proxy) as a child JVM on a free loopback
 *       port;</li>
 *   <li>{@link dev.ourios.testkit.Testdata}: the repository's {@code testdata/} directory, found from wherever the
 *       clone is;</li>
 *   <li>{@link dev.ourios.testkit.Await}: waiting for a condition with a deadline;</li>
 *   <li>{@link dev.ourios.testkit.RawHttp}: a socket that sends what no well-behaved HTTP client would (partial
 *       headers, short bodies, malformed lines);</li>
 *   <li>{@link dev.ourios.testkit.TestTls}: a CA, server and client certificates made with the JDK's keytool;</li>
 *   <li>{@link dev.ourios.testkit.LandingLedger}: the rows landed into a store by partition, and the judge of a
 *       read against them (exactly the acknowledged rows, no torn file).</li>
 * </ul>
 */
package dev.ourios.testkit;
