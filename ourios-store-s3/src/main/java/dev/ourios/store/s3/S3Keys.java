package dev.ourios.store.s3;

import dev.ourios.store.StoreException;

/**
 * Key checks shared by every operation. S3 accepts almost any key, but the local store does not, and a key that
 * only works on one backend would break the moment a table moves; so S3 refuses the same keys.
 */
final class S3Keys {
    private S3Keys() {
    }

    static String requireKey(String key) throws StoreException {
        if (key.isEmpty() || key.endsWith("/")) {
            throw new StoreException("invalid key '" + key + "': empty or ends in '/'");
        }
        checkSegments(key, key);
        return key;
    }

    static String requireDir(String dirPrefix) throws StoreException {
        if (dirPrefix.isEmpty()) {
            return dirPrefix;
        }
        if (!dirPrefix.endsWith("/")) {
            throw new StoreException("listing prefix must end in '/': '" + dirPrefix + "'");
        }
        checkSegments(dirPrefix.substring(0, dirPrefix.length() - 1), dirPrefix);
        return dirPrefix;
    }

    private static void checkSegments(String path, String original) throws StoreException {
        if (path.contains("\\") || path.contains("\0")) {
            throw new StoreException("invalid key '" + original + "'");
        }
        for (String segment : path.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new StoreException("invalid key '" + original + "': empty, '.' or '..' segment");
            }
        }
    }
}
