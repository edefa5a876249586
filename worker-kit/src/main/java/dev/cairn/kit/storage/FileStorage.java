package dev.cairn.kit.storage;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Snapshots in local files (or a file system mounted on every host): locations are {@code file:} URIs or plain
 * paths, and every location this storage makes is a {@code file:} URI.
 *
 * <p>In: file locations and bytes. Out: the files' bytes. {@link #write} is durable and atomic: the bytes go to a
 * temporary sibling, which is forced to the disk ({@link FileChannel#force}) and moved over the file atomically, and
 * then the directory is forced too, so that the move survives a crash; directories it makes are forced into their
 * parents. A crash leaves the old file or the new one, never a part of one (a temporary file may be left beside).
 * Stateless and thread-safe; {@link #close()} does nothing.
 */
public final class FileStorage implements SnapshotStorage {

    /** A file storage; they are all alike. */
    public FileStorage() {
    }

    /**
     * The local path of a {@code file:} URI or a plain path.
     *
     * @throws IOException for any other scheme, or a {@code file:} URI or path that is not valid
     */
    public static Path path(String location) throws IOException {
        try {
            if (Locations.scheme(location).isEmpty()) {
                return Path.of(location);
            }
            if (!Locations.scheme(location).get().equals("file")) {
                throw new IOException("the location " + location + " is neither a file: URI nor a path");
            }
            return Path.of(URI.create(location));
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            throw new IOException("the location " + location + " is not a valid file: URI or path: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void write(String location, byte[] bytes) throws IOException {
        Path file = path(location).toAbsolutePath();
        Path directory = file.getParent();
        Path temporary = directory.resolve("." + file.getFileName() + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        try {
            createDirectories(directory);
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            forceDirectory(directory);
        } catch (IOException | RuntimeException e) {
            IOException failure = new IOException("cannot write " + location + ": " + e, e);
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException cleanup) {
                failure.addSuppressed(cleanup);
            }
            throw failure;
        }
    }

    @Override
    public byte[] read(String location) throws IOException {
        try {
            return Files.readAllBytes(path(location));
        } catch (NoSuchFileException e) {
            throw new LocationNotFoundException(location, e);
        }
    }

    @Override
    public void delete(String location) throws IOException {
        Files.deleteIfExists(path(location));
    }

    @Override
    public boolean exists(String location) throws IOException {
        return Files.isRegularFile(path(location));
    }

    @Override
    public long size(String location) throws IOException {
        try {
            return Files.size(path(location));
        } catch (NoSuchFileException e) {
            throw new LocationNotFoundException(location, e);
        }
    }

    @Override
    public List<String> list(String location) throws IOException {
        Path directory = path(location);
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(directory)) {
            files.filter(Files::isRegularFile).sorted()
                    .forEach(file -> found.add(file.toAbsolutePath().toUri().toString()));
        }
        return found;
    }

    @Override
    public String resolve(String directory, String name) throws IOException {
        return path(directory).toAbsolutePath().resolve(Locations.requireRelativeName(name)).normalize().toUri()
                .toString();
    }

    @Override
    public String parent(String location) throws IOException {
        Path parent = path(location).toAbsolutePath().normalize().getParent();
        if (parent == null) {
            throw new IOException("the location " + location + " has no parent directory");
        }
        return parent.toUri().toString();
    }

    @Override
    public void close() {
        // nothing held
    }

    @Override
    public String toString() {
        return "local files";
    }

    /** Makes {@code directory} and its missing parents, each forced into its parent. */
    private static void createDirectories(Path directory) throws IOException {
        List<Path> missing = new ArrayList<>();
        for (Path dir = directory; dir != null && !Files.isDirectory(dir); dir = dir.getParent()) {
            missing.add(0, dir);
        }
        Files.createDirectories(directory);
        for (Path made : missing) {
            if (made.getParent() != null) {
                forceDirectory(made.getParent());
            }
        }
    }

    /** Forces a directory's entries (a move into it, a directory made in it) to the disk. */
    private static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
