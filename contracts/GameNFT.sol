// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {ERC2981} from "@openzeppelin/contracts/token/common/ERC2981.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// Game NFT: per-token URI and royalty, minted in batches of caller-chosen ids by minters.
contract GameNFT is ERC721URIStorage, ERC2981, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    /// Per-call mint limit on this chain (the API enforces the same number).
    uint256 public constant MAX_BATCH = 50;

    /// Lock escrows trusted to move tokens for their owners (the owner still has to ask).
    mapping(address => bool) public lockOperators;

    error BatchSizeInvalid(uint256 count, uint256 max);
    error BatchLengthMismatch();

    event LockOperatorSet(address indexed operator, bool trusted);

    constructor(string memory name_, string memory symbol_, address admin) ERC721(name_, symbol_) {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, admin);
    }

    /// Mints `ids` to `to`, each with its URI and royalty (basis points, paid to the minter).
    function mintBatch(address to, uint256[] calldata ids, string[] calldata uris, uint96[] calldata royaltyBps)
        external
        onlyRole(MINTER_ROLE)
    {
        uint256 n = ids.length;
        if (n == 0 || n > MAX_BATCH) revert BatchSizeInvalid(n, MAX_BATCH);
        if (uris.length != n || royaltyBps.length != n) revert BatchLengthMismatch();
        for (uint256 i = 0; i < n; i++) {
            _mint(to, ids[i]);
            _setTokenURI(ids[i], uris[i]);
            if (royaltyBps[i] > 0) _setTokenRoyalty(ids[i], msg.sender, royaltyBps[i]);
        }
    }

    /// Trusts (or stops trusting) a lock escrow to take tokens whose owner asks it to.
    function setLockOperator(address operator, bool trusted) external onlyRole(DEFAULT_ADMIN_ROLE) {
        lockOperators[operator] = trusted;
        emit LockOperatorSet(operator, trusted);
    }

    function isApprovedForAll(address owner, address operator) public view override(ERC721, IERC721) returns (bool) {
        return lockOperators[operator] || super.isApprovedForAll(owner, operator);
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(ERC721URIStorage, ERC2981, AccessControl)
        returns (bool)
    {
        return super.supportsInterface(interfaceId);
    }
}
