package dev.cairn.kit.storage;

import java.io.IOException;
import java.util.List;

/**
 * Where snapshots are kept: whole objects written, read and deleted at string locations. A location names one
 * object ({@code file:///data/job/chk-3/source-orders-0.state}, {@code s3://bucket/job/chk-3/source-orders-0.state},
 * or a plain path) or a directory-like prefix of objects (a checkpoint's storage location, {@code .../job/chk-3});
 * {@link #resolve} makes an object's location from a directory's. {@link SnapshotStorages} picks the kind by the
 * location's scheme.
 *
 * <p>In: locations and the bytes of whole objects. Out: the bytes back, whether an object exists, what lies under a
 * location. An object is written whole or not at all, and it is durable once {@link #write} returns. Every failure is
 * an {@link IOException} whose message names the location; {@link LocationNotFoundException} says that an object
 * does not exist. Implementations are thread-safe; {@link #close()} releases their clients.
 */
public interface SnapshotStorage extends AutoCloseable {

    /**
     * Writes {@code bytes} as the object at {@code location}, replacing what was there: durable when this returns,
     * and never seen half-written.
     *
     * @throws IOException when the object could not be written (nothing, or the previous object, is left)
     */
    void write(String location, byte[] bytes) throws IOException;

    /**
     * The bytes of the object at {@code location}.
     *
     * @throws LocationNotFoundException when there is no such object
     * @throws IOException when it cannot be read
     */
    byte[] read(String location) throws IOException;

    /**
     * Deletes the object at {@code location}; an object that does not exist is fine (deleting twice is deleting
     * once).
     *
     * @throws IOException when it exists and cannot be deleted
     */
    void delete(String location) throws IOException;

    /** Whether an object exists at {@code location}. */
    boolean exists(String location) throws IOException;

    /**
     * The size in bytes of the object at {@code location}.
     *
     * @throws LocationNotFoundException when there is no such object
     */
    long size(String location) throws IOException;

    /**
     * The locations of every object under the directory-like {@code location} (at every depth), sorted; empty when
     * nothing is there (and for the location of an object: nothing lies under it).
     */
    List<String> list(String location) throws IOException;

    /** The total size in bytes of the objects under {@code location} ({@link #list}). */
    default long totalBytes(String location) throws IOException {
        long total = 0;
        for (String object : list(location)) {
            total += size(object);
        }
        return total;
    }

    /**
     * The location of {@code name} in the directory-like {@code directory}: for local files the path resolved and
     * made a {@code file:} URI, for S3 {@code <directory>/<name>} (one slash between them).
     *
     * @param name a relative name: not empty, no leading {@code /}, no {@code .} or {@code ..} segment
     * @throws IOException when {@code directory} is not a location of this storage
     * @throws IllegalArgumentException when {@code name} is not a relative name
     */
    String resolve(String directory, String name) throws IOException;

    /**
     * The directory-like location that holds the object at {@code location}: the inverse of {@link #resolve}.
     *
     * @throws IOException when {@code location} is not a location of this storage, or has no parent
     */
    String parent(String location) throws IOException;

    /** Releases the storage's clients (an S3 client); the storage is not used after. */
    @Override
    void close();
}
