package dev.cairn.kit.storage;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Snapshots in S3 (or an S3-compatible server), through the AWS SDK for Java 2: locations are
 * {@code s3://bucket/key}, directory-like locations are key prefixes ({@code s3://bucket/job/chk-3}).
 *
 * <p>In: {@code s3://} locations and bytes, and the {@link S3Settings} to reach S3 with. Out: the objects' bytes.
 * {@link #write} is one PutObject with the bytes' {@code Content-MD5}, which S3 checks before it stores the object;
 * the object is durable, and whole, when S3 answers it (a put replaces an object atomically). The SDK's own
 * checksums follow {@link S3Settings#flexibleChecksums()}. Failures of the SDK are {@link IOException}s naming the
 * location. Thread-safe; one {@link S3Client} (with the URL-connection HTTP client), closed by {@link #close()}.
 */
public final class S3Storage implements SnapshotStorage {

    private final S3Client client;
    private final String description;

    /**
     * A storage reaching S3 as {@code settings} say.
     *
     * @throws IllegalStateException when the SDK cannot make a client (no region anywhere, say)
     */
    public S3Storage(S3Settings settings) {
        this.client = S3Clients.create(settings);
        this.description = "S3 (" + settings + ")";
    }

    @Override
    public void write(String location, byte[] bytes) throws IOException {
        S3Location object = S3Location.parse(location);
        String key = object.objectKey();
        call("write", location, () -> client.putObject(put -> put.bucket(object.bucket()).key(key)
                .contentLength((long) bytes.length).contentMD5(md5(bytes)), RequestBody.fromBytes(bytes)));
    }

    @Override
    public byte[] read(String location) throws IOException {
        S3Location object = S3Location.parse(location);
        String key = object.objectKey();
        try {
            return call("read", location, () -> client.getObjectAsBytes(get -> get.bucket(object.bucket()).key(key))
                    .asByteArray());
        } catch (IOException e) {
            throw missing(location, e);
        }
    }

    @Override
    public void delete(String location) throws IOException {
        S3Location object = S3Location.parse(location);
        String key = object.objectKey();
        call("delete", location, () -> client.deleteObject(delete -> delete.bucket(object.bucket()).key(key)));
    }

    @Override
    public boolean exists(String location) throws IOException {
        try {
            size(location);
            return true;
        } catch (LocationNotFoundException e) {
            return false;
        }
    }

    @Override
    public long size(String location) throws IOException {
        S3Location object = S3Location.parse(location);
        String key = object.objectKey();
        try {
            return call("look up", location, () -> client.headObject(head -> head.bucket(object.bucket()).key(key))
                    .contentLength());
        } catch (IOException e) {
            throw missing(location, e);
        }
    }

    @Override
    public List<String> list(String location) throws IOException {
        S3Location directory = S3Location.parse(location);
        return objects(location).stream().map(object -> directory.sibling(object.key()).toString()).sorted()
                .toList();
    }

    @Override
    public long totalBytes(String location) throws IOException {
        return objects(location).stream().mapToLong(S3Object::size).sum();
    }

    @Override
    public String resolve(String directory, String name) throws IOException {
        return S3Location.parse(directory).resolve(name).toString();
    }

    @Override
    public String parent(String location) throws IOException {
        return S3Location.parse(location).parent().toString();
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return description;
    }

    private List<S3Object> objects(String location) throws IOException {
        S3Location directory = S3Location.parse(location);
        return call("list", location, () -> {
            List<S3Object> objects = new ArrayList<>();
            // a key ending with a slash is a folder marker (consoles make them, some servers list directories
            // so), never an object of this storage
            client.listObjectsV2Paginator(list -> list.bucket(directory.bucket())
                    .prefix(directory.directoryPrefix())).contents().stream()
                    .filter(object -> !object.key().endsWith("/")).forEach(objects::add);
            return objects;
        });
    }

    private static IOException missing(String location, IOException failure) {
        Throwable cause = failure.getCause();
        boolean notFound = cause instanceof NoSuchKeyException
                || (cause instanceof S3Exception s3 && s3.statusCode() == 404 && !isMissingBucket(s3));
        return notFound ? new LocationNotFoundException(location, cause) : failure;
    }

    private static boolean isMissingBucket(S3Exception e) {
        return e.awsErrorDetails() != null && "NoSuchBucket".equals(e.awsErrorDetails().errorCode());
    }

    private static <T> T call(String what, String location, SdkCall<T> call) throws IOException {
        try {
            return call.run();
        } catch (SdkException e) {
            throw new IOException("cannot " + what + " " + location + ": " + e.getMessage(), e);
        }
    }

    private static String md5(byte[] bytes) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
    }

    /** One call of the SDK. */
    @FunctionalInterface
    private interface SdkCall<T> {
        T run();
    }
}
