package dev.cairn.kit.storage;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The storage of every kind of location, picked by the location's scheme: {@code s3://} to {@link S3Storage},
 * {@code file:} and plain paths to {@link FileStorage}; any other scheme is an {@link IOException} saying which are
 * supported.
 *
 * <p>In: locations, and the {@link S3Settings} for {@code s3://} ones. Out: what the picked storage answers. The S3
 * client is made at the first {@code s3://} location, so a job that keeps its snapshots in files never makes one
 * (nor reads S3 settings). {@link #defaults()} is the one instance a process shares, with its S3 settings from the
 * environment ({@link S3Settings#fromEnvironment}); the kit's tasks use it unless given another.
 */
public final class SnapshotStorages implements SnapshotStorage {

    private static final SnapshotStorages DEFAULTS = new SnapshotStorages(
            () -> S3Settings.fromEnvironment(System.getenv()), true);

    private final FileStorage files = new FileStorage();
    private final Supplier<S3Settings> s3Settings;
    private final boolean shared;
    private S3Storage s3;
    private boolean closed;

    /** A storage making its S3 client with the settings {@code s3Settings} gives at the first s3:// location. */
    SnapshotStorages(Supplier<S3Settings> s3Settings, boolean shared) {
        this.s3Settings = s3Settings;
        this.shared = shared;
    }

    /**
     * The process's storage: S3 settings from the environment ({@code CAIRN_S3_*} and the AWS SDK's own), read at
     * the first {@code s3://} location. It lives as long as the process: {@link #close()} leaves it open.
     */
    public static SnapshotStorages defaults() {
        return DEFAULTS;
    }

    /** A storage reaching S3 as {@code settings} say; its owner closes it. */
    public static SnapshotStorages of(S3Settings settings) {
        Objects.requireNonNull(settings, "settings");
        return new SnapshotStorages(() -> settings, false);
    }

    /**
     * The storage of {@code location}'s kind.
     *
     * @throws IOException when its scheme is not supported, or no S3 client can be made with the settings
     */
    public SnapshotStorage storageOf(String location) throws IOException {
        Optional<String> scheme = Locations.scheme(location);
        if (scheme.isEmpty() || scheme.get().equals("file")) {
            return files;
        }
        if (scheme.get().equals("s3")) {
            return s3(location);
        }
        throw new IOException("the location " + location + " has the scheme " + scheme.get() + ": snapshots are "
                + "kept at file: URIs, plain paths and s3://bucket/key locations");
    }

    @Override
    public void write(String location, byte[] bytes) throws IOException {
        storageOf(location).write(location, bytes);
    }

    @Override
    public byte[] read(String location) throws IOException {
        return storageOf(location).read(location);
    }

    @Override
    public void delete(String location) throws IOException {
        storageOf(location).delete(location);
    }

    @Override
    public boolean exists(String location) throws IOException {
        return storageOf(location).exists(location);
    }

    @Override
    public long size(String location) throws IOException {
        return storageOf(location).size(location);
    }

    @Override
    public List<String> list(String location) throws IOException {
        return storageOf(location).list(location);
    }

    @Override
    public long totalBytes(String location) throws IOException {
        return storageOf(location).totalBytes(location);
    }

    @Override
    public String resolve(String directory, String name) throws IOException {
        return storageOf(directory).resolve(directory, name);
    }

    @Override
    public String parent(String location) throws IOException {
        return storageOf(location).parent(location);
    }

    /** Closes the S3 client, if one was made; {@link #defaults()} stays open. */
    @Override
    public synchronized void close() {
        if (shared) {
            return;
        }
        closed = true;
        if (s3 != null) {
            s3.close();
            s3 = null;
        }
    }

    @Override
    public String toString() {
        return shared ? "snapshot storage (file:, s3:// from the environment)" : "snapshot storage (file:, s3://)";
    }

    private synchronized S3Storage s3(String location) throws IOException {
        if (closed) {
            throw new IOException("cannot reach " + location + ": the storage is closed");
        }
        if (s3 == null) {
            try {
                s3 = new S3Storage(s3Settings.get());
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new IOException("cannot reach " + location + ": " + e.getMessage(), e);
            }
        }
        return s3;
    }
}
