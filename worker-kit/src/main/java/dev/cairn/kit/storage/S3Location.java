package dev.cairn.kit.storage;

import java.io.IOException;

/**
 * An {@code s3://bucket/key} location, taken apart: the bucket, and the key (empty for the bucket's root). Keys are
 * kept as written, slashes and all.
 */
record S3Location(String bucket, String key) {

    static final String PREFIX = "s3://";

    /**
     * The bucket and key of {@code location}.
     *
     * @throws IOException when it is not an {@code s3://} location with a bucket
     */
    static S3Location parse(String location) throws IOException {
        if (!location.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            throw new IOException("the location " + location + " is not an s3://bucket/key location");
        }
        String rest = location.substring(PREFIX.length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        if (bucket.isEmpty()) {
            throw new IOException("the location " + location + " names no bucket (s3://bucket/key)");
        }
        return new S3Location(bucket, slash < 0 ? "" : rest.substring(slash + 1));
    }

    /**
     * The key of the object this location names.
     *
     * @throws IOException when it names a directory-like prefix rather than an object (no key, or a trailing slash)
     */
    String objectKey() throws IOException {
        if (key.isEmpty() || key.endsWith("/")) {
            throw new IOException("the location " + this + " names no object: its key is empty or ends with /");
        }
        return key;
    }

    /** The key prefix of the objects under this directory-like location: the key and a slash, or nothing. */
    String directoryPrefix() {
        return key.isEmpty() || key.endsWith("/") ? key : key + "/";
    }

    /** The location of {@code name} under this one, with one slash between them. */
    S3Location resolve(String name) {
        return new S3Location(bucket, directoryPrefix() + Locations.requireRelativeName(name));
    }

    /**
     * The location holding this one: its key up to the last slash.
     *
     * @throws IOException for the bucket's root
     */
    S3Location parent() throws IOException {
        String trimmed = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
        if (trimmed.isEmpty()) {
            throw new IOException("the location " + this + " is a bucket's root: it has no parent");
        }
        int slash = trimmed.lastIndexOf('/');
        return new S3Location(bucket, slash < 0 ? "" : trimmed.substring(0, slash));
    }

    /** The location of the object {@code key} in the same bucket. */
    S3Location sibling(String otherKey) {
        return new S3Location(bucket, otherKey);
    }

    @Override
    public String toString() {
        return PREFIX + bucket + (key.isEmpty() ? "" : "/" + key);
    }
}
