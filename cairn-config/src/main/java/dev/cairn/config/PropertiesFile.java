package dev.cairn.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** Cairn's one reader of properties files: a program's configuration file, a {@code --kafka-config} file. */
public final class PropertiesFile {

    private PropertiesFile() {
    }

    /**
     * The entries of {@code file} (UTF-8, Java properties syntax: a {@code #} starts a comment only at the start
     * of a line), keys and values trimmed.
     *
     * @param key the key that named the file, for messages (e.g. {@code kafka.config})
     * @throws ConfigProblem naming the key and the file when it is missing, unreadable or malformed
     */
    public static Map<String, String> read(Path file, String key) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new ConfigProblem(key, key + ": cannot read " + file
                    + (Files.exists(file) ? "" : " (it does not exist)"));
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigProblem(key, key + ": " + file + " is not a properties file: " + e.getMessage(), e);
        }
        Map<String, String> values = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> values.put(name.trim(), properties.getProperty(name).trim()));
        return values;
    }
}
