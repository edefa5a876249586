package dev.cairn.s3;

import java.util.Objects;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that starts one {@link S3ProxyServer} per test class and hands it to the tests.
 *
 * <p>In: the bucket to make (default {@value #DEFAULT_BUCKET}). Out: the running server, as an
 * {@link S3ProxyServer} parameter (test constructor, {@code @BeforeAll}, {@code @BeforeEach} or test method) or
 * through {@link #server()} when the extension is a static field. The server starts before the class's first test
 * and stops (its directory deleted) when the class is done; tests of a class share it, so they use keys of their own
 * or {@link S3ProxyServer#clear()} it.
 *
 * <pre>{@code
 * class SnapshotsOnS3Test {
 *     @RegisterExtension
 *     static final S3ServerExtension S3 = new S3ServerExtension();
 *
 *     @Test
 *     void shouldKeepTheSnapshotWhenWritten() {
 *         Map<String, String> settings = S3.server().settings();
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>or {@code @ExtendWith(S3ServerExtension.class)} with an {@code S3ProxyServer} parameter.
 */
public final class S3ServerExtension implements BeforeAllCallback, ParameterResolver {

    /** The bucket made when none is named. */
    public static final String DEFAULT_BUCKET = "cairn-test";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(
            S3ServerExtension.class);

    private final String bucket;
    private volatile S3ProxyServer server;

    /** An extension making the bucket {@value #DEFAULT_BUCKET}; what {@code @ExtendWith} creates. */
    public S3ServerExtension() {
        this(DEFAULT_BUCKET);
    }

    /** An extension making the bucket {@code bucket}. */
    public S3ServerExtension(String bucket) {
        this.bucket = Objects.requireNonNull(bucket, "bucket");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = context.getStore(NAMESPACE).getOrComputeIfAbsent(context.getRequiredTestClass(),
                key -> S3ProxyServer.start(bucket), S3ProxyServer.class);
    }

    /**
     * The running server of the current test class.
     *
     * @throws IllegalStateException before the class's tests started (the extension is not a static field?)
     */
    public S3ProxyServer server() {
        S3ProxyServer running = server;
        if (running == null) {
            throw new IllegalStateException("the S3 server starts before a test class's first test: register "
                    + "S3ServerExtension on a static field or with @ExtendWith");
        }
        return running;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == S3ProxyServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return server();
    }
}
