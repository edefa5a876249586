package dev.cairn.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.PageSet;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.domain.StorageType;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.jclouds.filesystem.FilesystemApiMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real S3 API server inside the JVM, for tests: S3Proxy over a jclouds {@code filesystem} blob store in a
 * temporary directory, listening on a free loopback port, with static credentials (AWS signature V2 or V4) and one
 * bucket made at start.
 *
 * <p>In: a bucket name ({@link #start(String)}). Out: the {@link #endpoint()}, the {@link #bucket()}, the
 * credentials, {@link #settings()} in the names the worker kit's S3 settings read, {@code s3://} locations of keys
 * ({@link #location}), and a look at what the server holds, straight from its blob store (not through the S3 API):
 * {@link #keys}, {@link #objects} (count and total bytes under a prefix), {@link #read} and {@link #overwrite} (to
 * corrupt an object behind the client's back). {@link #close()} stops the server and deletes the directory.
 *
 * <pre>{@code
 * try (S3ProxyServer s3 = S3ProxyServer.start("snapshots")) {
 *     S3Client client = S3Client.builder().endpointOverride(s3.endpoint()).forcePathStyle(true)...;
 *     ...
 *     assertThat(s3.objects("job-1/").count()).isEqualTo(3);
 * }
 * }</pre>
 */
public final class S3ProxyServer implements AutoCloseable {

    /** The access key the server accepts. */
    public static final String ACCESS_KEY = "cairn-test-access-key";
    /** The secret key the server accepts. */
    public static final String SECRET_KEY = "cairn-test-secret-key";
    /** The region clients sign for (S3Proxy accepts any). */
    public static final String REGION = "us-east-1";

    private static final Logger LOG = LoggerFactory.getLogger(S3ProxyServer.class);

    private final Path directory;
    private final BlobStoreContext context;
    private final S3Proxy proxy;
    private final String bucket;
    private final URI endpoint;

    private S3ProxyServer(Path directory, BlobStoreContext context, S3Proxy proxy, String bucket) {
        this.directory = directory;
        this.context = context;
        this.proxy = proxy;
        this.bucket = bucket;
        this.endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    /**
     * Starts a server on a free loopback port with the bucket {@code bucket} made.
     *
     * @throws IllegalStateException when the server does not start
     */
    public static S3ProxyServer start(String bucket) {
        Objects.requireNonNull(bucket, "bucket");
        Path directory;
        try {
            directory = Files.createTempDirectory("cairn-s3proxy");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the S3 server's directory", e);
        }
        Properties properties = new Properties();
        properties.setProperty("jclouds.filesystem.basedir", directory.toString());
        // by its metadata, not its name: a name makes jclouds load every provider S3Proxy registers, and S3Proxy's
        // Azure provider needs the Azure libraries, left out of this module
        BlobStoreContext context = ContextBuilder.newBuilder(new FilesystemApiMetadata())
                .credentials(ACCESS_KEY, SECRET_KEY)
                .overrides(properties).build(BlobStoreContext.class);
        S3Proxy proxy = S3Proxy.builder().blobStore(context.getBlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
        try {
            context.getBlobStore().createContainerInLocation(null, bucket);
            proxy.start();
        } catch (Exception e) {
            stopQuietly(proxy);
            context.close();
            deleteRecursively(directory);
            throw new IllegalStateException("the S3 server did not start: " + e, e);
        }
        S3ProxyServer server = new S3ProxyServer(directory, context, proxy, bucket);
        LOG.info("S3 server for tests at {}, bucket {}, objects in {}", server.endpoint, bucket, directory);
        return server;
    }

    /** The server's address, {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        return endpoint;
    }

    /** The bucket made at start. */
    public String bucket() {
        return bucket;
    }

    /** The access key the server accepts. */
    public String accessKey() {
        return ACCESS_KEY;
    }

    /** The secret key the server accepts. */
    public String secretKey() {
        return SECRET_KEY;
    }

    /** The region clients sign for. */
    public String region() {
        return REGION;
    }

    /**
     * The settings a client of this server needs, by the names of the worker kit's S3 settings:
     * {@code s3.endpoint}, {@code s3.region}, {@code s3.path-style-access} (true: the bucket is in the path, as the
     * server has no host names of its own), {@code s3.access-key}, {@code s3.secret-key}, and
     * {@code s3.flexible-checksums} false: S3Proxy checks a put's {@code Content-MD5}, but it refuses the CRC trailer
     * the AWS SDK sends by default and the checksum mode header of a get.
     */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("s3.endpoint", endpoint.toString());
        settings.put("s3.region", REGION);
        settings.put("s3.path-style-access", "true");
        settings.put("s3.access-key", ACCESS_KEY);
        settings.put("s3.secret-key", SECRET_KEY);
        settings.put("s3.flexible-checksums", "false");
        return Map.copyOf(settings);
    }

    /** The {@code s3://} location of {@code key} in the bucket: {@code s3://<bucket>/<key>}. */
    public String location(String key) {
        return "s3://" + bucket + "/" + key;
    }

    /** The keys of the objects under {@code prefix} (every depth), in the store's order; {@code ""} for all. */
    public List<String> keys(String prefix) {
        return blobs(prefix).stream().map(StorageMetadata::getName).toList();
    }

    /** How many objects lie under {@code prefix} (every depth), and their total size in bytes. */
    public StoredObjects objects(String prefix) {
        List<StorageMetadata> blobs = blobs(prefix);
        long bytes = 0;
        for (StorageMetadata blob : blobs) {
            Long size = blob.getSize();
            bytes += size != null ? size : read(blob.getName()).length;
        }
        return new StoredObjects(blobs.size(), bytes);
    }

    /**
     * The bytes of the object {@code key}, read from the store.
     *
     * @throws IllegalArgumentException when there is no such object
     */
    public byte[] read(String key) {
        Blob blob = context.getBlobStore().getBlob(bucket, key);
        if (blob == null) {
            throw new IllegalArgumentException("no object " + key + " in bucket " + bucket);
        }
        try (InputStream in = blob.getPayload().openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + key + " from the store", e);
        }
    }

    /** Replaces (or makes) the object {@code key} with {@code bytes} in the store, bypassing the S3 API. */
    public void overwrite(String key, byte[] bytes) {
        BlobStore store = context.getBlobStore();
        store.putBlob(bucket, store.blobBuilder(key).payload(bytes).contentLength((long) bytes.length).build());
    }

    /** Deletes every object of the bucket (the bucket stays). */
    public void clear() {
        BlobStore store = context.getBlobStore();
        // one by one: the filesystem store's clearContainer fails on a container without directories
        keys("").forEach(key -> store.removeBlob(bucket, key));
    }

    /** Stops the server and deletes its objects and directory. */
    @Override
    public void close() {
        stopQuietly(proxy);
        context.close();
        deleteRecursively(directory);
    }

    @Override
    public String toString() {
        return "S3 server at " + endpoint + " (bucket " + bucket + ")";
    }

    private List<StorageMetadata> blobs(String prefix) {
        BlobStore store = context.getBlobStore();
        List<StorageMetadata> blobs = new ArrayList<>();
        ListContainerOptions options = ListContainerOptions.Builder.recursive();
        if (!prefix.isEmpty()) {
            options = options.prefix(prefix);
        }
        String marker = null;
        do {
            PageSet<? extends StorageMetadata> page = store.list(bucket,
                    marker == null ? options : options.afterMarker(marker));
            page.stream().filter(entry -> entry.getType() == StorageType.BLOB).forEach(blobs::add);
            marker = page.getNextMarker();
        } while (marker != null);
        return blobs;
    }

    private static void stopQuietly(S3Proxy proxy) {
        try {
            proxy.stop();
        } catch (Exception e) {
            LOG.warn("The S3 server did not stop cleanly: {}", e.toString());
        }
    }

    private static void deleteRecursively(Path directory) {
        try {
            Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.warn("Cannot delete the S3 server's directory {}: {}", directory, e.toString());
        }
    }

    /**
     * What lies under a prefix.
     *
     * @param count the number of objects
     * @param bytes their total size
     */
    public record StoredObjects(int count, long bytes) {}
}
