/* placeholder: written in progress */
