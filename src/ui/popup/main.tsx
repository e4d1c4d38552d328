/** Toolbar popup. Opened as a tab, `?tabId=N` selects the page to work on. */
import '../styles.css';
import { mountApp } from '../app/mount.tsx';

mountApp('popup');
