<?php
/**
 * Router of `php -S 127.0.0.1:PORT -t /usr/share/wordpress router.php`:
 * static files are served as they are; a PHP script (or a directory's
 * index.php) runs in the global scope with the benchmark's settings; any
 * other path goes to WordPress's index.php.
 */
require __DIR__ . '/bench-env.php';
$apprentice_root = rtrim($_SERVER['DOCUMENT_ROOT'], '/');
$apprentice_path = urldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?? '/');
$apprentice_file = $apprentice_root . $apprentice_path;
if (is_dir($apprentice_file)) {
    if (substr($apprentice_path, -1) !== '/') {
        header('Location: ' . $apprentice_path . '/' . (isset($_SERVER['QUERY_STRING']) && $_SERVER['QUERY_STRING'] !== '' ? '?' . $_SERVER['QUERY_STRING'] : ''), true, 301);
        return true;
    }
    $apprentice_path .= 'index.php';
    $apprentice_file .= 'index.php';
}
if (is_file($apprentice_file) && substr($apprentice_file, -4) !== '.php') return false;
if (!is_file($apprentice_file)) {
    $apprentice_path = '/index.php';
    $apprentice_file = $apprentice_root . '/index.php';
}
$_SERVER['SCRIPT_NAME'] = $apprentice_path;
$_SERVER['PHP_SELF'] = $apprentice_path;
$_SERVER['SCRIPT_FILENAME'] = $apprentice_file;
chdir(dirname($apprentice_file));
require $apprentice_file;
