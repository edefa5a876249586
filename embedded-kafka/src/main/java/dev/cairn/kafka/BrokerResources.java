package dev.cairn.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What an {@link EmbeddedKafkaBroker} takes from its machine: free loopback ports and a log directory. */
final class BrokerResources {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final String LOOPBACK = SingleNodeKRaft.LOOPBACK;

    private BrokerResources() {
    }

    /** Kafka reports a taken port as "Socket server failed to bind to ...: Address already in use". */
    static boolean isBindFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException) {
                return true;
            }
            String message = t.getMessage();
            if (message != null && (message.contains("failed to bind") || message.contains("Address already in use"))) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** Probes {@code count} distinct free ports on 127.0.0.1 (all sockets are held until every port is picked). */
    static int[] freeLoopbackPorts(int count) {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            InetAddress loopback = InetAddress.getByName(LOOPBACK);
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, loopback);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not find free loopback ports", e);
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    try {
                        socket.close();
                    } catch (IOException ignored) {
                        // probing only
                    }
                }
            }
        }
    }

    static Path createTempDir() {
        try {
            return Files.createTempDirectory("cairn-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a temporary log directory", e);
        }
    }

    static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                    if (exc instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw exc;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.warn("Could not delete the embedded Kafka log directory {}: {}", root, e.toString());
        }
    }
}
