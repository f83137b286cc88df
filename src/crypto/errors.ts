/**
 * The error texts of the crypto helpers (spec §8), apart from the ciphers so that importing them
 * loads no cipher.
 * @module
 */

/** The error text for an AES key that is not 32 bytes (spec §8). */
export const INVALID_KEY_LENGTH = 'Invalid key length. Key must be 256 bits (32 bytes).';

/** The error text for any decryption failure (spec §8). */
export const DECRYPT_ERROR = 'Error decrypting text';
