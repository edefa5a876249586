package dev.cairn.demo;

import dev.cairn.kit.storage.S3Settings;
import dev.cairn.pipeline.CheckpointLocation;
import dev.cairn.pipeline.S3Environment;
import dev.cairn.s3.S3ProxyServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the demo keeps its checkpoints and savepoints: in S3, on an S3 API server (S3Proxy) that the demo starts in its
 * own JVM on a loopback port, over a temporary directory, with one bucket; or in a local directory. In: the kind and
 * the demo's directory. Out: the checkpoints' storage base, the savepoints' locations, the environment variables the
 * worker processes need to reach it, and a measure of what it holds ({@link #measure}).
 */
abstract sealed class DemoStorage implements AutoCloseable {

    /** The bucket of the demo's S3 server. */
    static final String BUCKET = "cairn-demo";

    /** The kinds the demo runs on. */
    enum Kind {
        S3, FILE;

        /** The kind named {@code name} ({@code s3}, {@code file}, in any case), if any. */
        static Optional<Kind> named(String name) {
            return Arrays.stream(values()).filter(kind -> kind.name().equalsIgnoreCase(name)).findFirst();
        }
    }

    /**
     * What lies under a location: objects (or files), their bytes, and the checkpoints they belong to.
     *
     * @param objects how many
     * @param bytes their total size
     * @param checkpoints the ids N of the {@code chk-N} directories that hold any of them
     */
    record Stored(long objects, long bytes, SortedSet<Long> checkpoints) {

        private static final Pattern CHECKPOINT = Pattern.compile("(?:^|/)chk-(\\d+)/");

        Stored {
            checkpoints = Collections.unmodifiableSortedSet(new TreeSet<>(checkpoints));
        }

        /** What {@code names} (object keys or relative paths, with '/') of {@code bytes} in all come to. */
        static Stored of(List<String> names, long bytes) {
            SortedSet<Long> checkpoints = new TreeSet<>();
            for (String name : names) {
                Matcher checkpoint = CHECKPOINT.matcher(name);
                if (checkpoint.find()) {
                    checkpoints.add(Long.parseLong(checkpoint.group(1)));
                }
            }
            return new Stored(names.size(), bytes, checkpoints);
        }
    }

    /** The storage of {@code kind}: an S3 server started now, or directories under {@code dir}. */
    static DemoStorage start(Kind kind, Path dir) {
        return kind == Kind.S3 ? new InS3(S3ProxyServer.start(BUCKET)) : new InFiles(dir);
    }

    /** The job's checkpoint storage base. */
    abstract CheckpointLocation checkpoints();

    /** Where the savepoints go. */
    abstract String savepoints();

    /** Where savepoint {@code name} goes. */
    String savepoint(String name) {
        return savepoints() + "/" + name;
    }

    /** The environment variables the workers need to reach the storage. */
    abstract Map<String, String> workerEnvironment();

    /** What lies under {@code location} (a {@link #checkpoints()} or {@link #savepoint} location, or below). */
    abstract Stored measure(String location);

    /** Where the storage is, for a user. */
    abstract String describe();

    @Override
    public abstract void close();

    /** In a bucket of an S3 server in this JVM. */
    static final class InS3 extends DemoStorage {

        private final S3ProxyServer server;

        InS3(S3ProxyServer server) {
            this.server = server;
        }

        @Override
        CheckpointLocation checkpoints() {
            return CheckpointLocation.parse(server.location("checkpoints"));
        }

        @Override
        String savepoints() {
            return server.location("savepoints");
        }

        @Override
        Map<String, String> workerEnvironment() {
            return S3Environment.variables(S3Settings.fromProperties(server.settings()));
        }

        @Override
        Stored measure(String location) {
            String prefix = "s3://" + server.bucket() + "/";
            if (!location.startsWith(prefix)) {
                throw new IllegalArgumentException(location + " is not in the bucket " + server.bucket());
            }
            String keyPrefix = location.substring(prefix.length()) + "/";
            S3ProxyServer.StoredObjects objects = server.objects(keyPrefix);
            List<String> keys = server.keys(keyPrefix).stream().map(key -> key.substring(keyPrefix.length())).toList();
            return Stored.of(keys, objects.bytes());
        }

        @Override
        String describe() {
            return "an S3 API server (S3Proxy) in this JVM at " + server.endpoint() + ", bucket " + server.bucket();
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /** In directories on this host. */
    static final class InFiles extends DemoStorage {

        private final Path dir;

        InFiles(Path dir) {
            this.dir = dir;
        }

        @Override
        CheckpointLocation checkpoints() {
            return CheckpointLocation.of(dir.resolve("checkpoints"));
        }

        @Override
        String savepoints() {
            return CheckpointLocation.of(dir.resolve("savepoints")).uri();
        }

        @Override
        Map<String, String> workerEnvironment() {
            return Map.of();
        }

        @Override
        Stored measure(String location) {
            Path root = CheckpointLocation.parse(location).directory();
            if (!Files.isDirectory(root)) {
                return Stored.of(List.of(), 0);
            }
            List<String> names = new ArrayList<>();
            long[] bytes = new long[1];
            try {
                // a file the workers delete while it is walked is not counted
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                        if (attributes.isRegularFile()) {
                            names.add(root.relativize(file).toString().replace('\\', '/'));
                            bytes[0] += attributes.size();
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE;
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException("cannot measure " + root, e);
            }
            return Stored.of(names, bytes[0]);
        }

        @Override
        String describe() {
            return "directories under " + dir;
        }

        @Override
        public void close() {
        }
    }
}
